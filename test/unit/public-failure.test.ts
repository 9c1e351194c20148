import { describe, expect, it } from 'vitest';
import {
  EngineRejection,
  ProviderRejection,
  ProviderUnavailable,
} from '../../server/providers/driver';
import { publicFailure, publicReason } from '../../server/providers/public-failure';
import { NotReady } from '../../server/jobs/steps';

const SSH = 'ssh: connect to host hv-3.dc1.internal (10.20.0.7) port 22: No route to host';

describe('what tenants are told of a failure', () => {
  it('keeps the words of a refusal the driver wrote for the user', () => {
    expect(publicFailure(new ProviderRejection('Size huge is not offered in lax'))).toEqual({
      kind: 'refused',
      reason: 'Size huge is not offered in lax',
      cause: null,
    });
  });

  it("tells the engine's own refusal by its kind, and keeps its words as the cause", () => {
    const virsh = "internal error: cannot open '/var/lib/launchpad/disks/lp-srv.qcow2' on hv-3";
    expect(publicFailure(new EngineRejection(virsh))).toEqual({
      kind: 'refused',
      reason: 'The provider refused this operation',
      cause: virsh,
    });
    const memory = 'No host in lax-1 has 8 GiB of memory free (the most is 1.0 GiB, on hv-2)';
    expect(publicFailure(new EngineRejection(memory, 'capacity'), 'server')).toEqual({
      kind: 'capacity',
      reason: 'There is not enough capacity for this server right now',
      cause: memory,
    });
  });

  it('tells an unreachable engine as its host, naming the subject', () => {
    expect(publicFailure(new ProviderUnavailable(SSH))).toEqual({
      kind: 'unreachable',
      reason: 'The host of this server cannot be reached',
      cause: SSH,
    });
    expect(publicFailure(new ProviderUnavailable(SSH), 'network').reason).toBe(
      'The host of this network cannot be reached',
    );
  });

  it('never shows the words of an error it does not know (a bug, a dropped connection)', () => {
    for (const error of [new TypeError(`fetch failed: ${SSH}`), new NotReady(SSH), { SSH }]) {
      expect(publicFailure(error)).toMatchObject({
        kind: 'unknown',
        reason: 'The provider could not complete this operation',
      });
    }
  });

  it("tells a task's fault in the engine's words as a failure, and a described one by its kind", () => {
    expect(publicFailure(SSH)).toEqual({
      kind: 'unknown',
      reason: 'The provider could not complete this operation',
      cause: SSH,
    });
    expect(publicFailure({ engineText: 'No valid host was found.', kind: 'capacity' })).toEqual({
      kind: 'capacity',
      reason: 'There is not enough capacity for this server right now',
      cause: 'No valid host was found.',
    });
    expect(
      publicFailure({
        engineText: 'Flavor lp.large: disk too small for image ubuntu',
        kind: 'refused',
        userMessage: 'The Large size has too small a disk for this image',
      }),
    ).toEqual({
      kind: 'refused',
      reason: 'The Large size has too small a disk for this image',
      cause: 'Flavor lp.large: disk too small for image ubuntu',
    });
  });

  it('has one engine-neutral sentence for each kind', () => {
    const kinds = ['unreachable', 'capacity', 'refused', 'timeout', 'unknown'] as const;
    const sentences = kinds.map((kind) => publicReason(kind, 'network'));
    expect(new Set(sentences).size).toBe(kinds.length);
    for (const sentence of sentences) {
      expect(sentence).not.toMatch(/libvirt|virsh|nova|neutron|keystone|openstack|ssh|qemu/i);
    }
    expect(publicReason('timeout')).toBe('The provider did not finish in time');
  });
});
