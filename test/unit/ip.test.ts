import { describe, expect, it } from 'vitest';
import {
  clampCidrInput,
  defaultAddressing,
  ipToNumber,
  isIpAddress,
  numberToIp,
  overlaps,
  parseCidr,
  reservedRangeWarning,
} from '../../src/api/contract/ip';

/** A small deterministic generator, so that the property checks are repeatable. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
}

describe('IPv4 addresses', () => {
  it.each(['0.0.0.0', '10.0.0.1', '255.255.255.255', '192.168.1.254'])('accepts %s', (ip) => {
    expect(isIpAddress(ip)).toBe(true);
  });

  it.each(['256.0.0.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.-4', 'a.b.c.d', '', '1..2.3'])(
    'refuses %j',
    (ip) => {
      expect(isIpAddress(ip)).toBe(false);
    },
  );

  it('round-trips every address through its number (10,000 random addresses)', () => {
    const next = random(1);
    for (let i = 0; i < 10_000; i += 1) {
      const n = next();
      expect(ipToNumber(numberToIp(n))).toBe(n);
    }
  });
});

describe('CIDR blocks', () => {
  it('normalises the block and says when host bits were set', () => {
    expect(parseCidr('10.0.0.5 / 24')).toMatchObject({
      text: '10.0.0.0/24',
      prefix: 24,
      size: 256,
      hostBitsSet: true,
    });
    expect(parseCidr('10.0.0.0/24')!.hostBitsSet).toBe(false);
  });

  it.each(['10.0.0.0', '10.0.0.0/33', '10.0.0/24', '10.0.0.0/', '/24', '300.0.0.0/24'])(
    'refuses %j',
    (text) => {
      expect(parseCidr(text)).toBeNull();
    },
  );

  it('accepts every prefix from 0 to 32', () => {
    for (let prefix = 0; prefix <= 32; prefix += 1) {
      expect(parseCidr(`10.0.0.0/${prefix}`)?.size).toBe(2 ** (32 - prefix));
    }
  });

  it('puts the gateway first and the DHCP range on every other host', () => {
    expect(defaultAddressing(parseCidr('192.168.10.0/24')!)).toEqual({
      gatewayIp: '192.168.10.1',
      dhcpStartAddress: '192.168.10.2',
      dhcpEndAddress: '192.168.10.254',
    });
  });

  it('keeps the gateway and the DHCP range inside the block for any block (2,000 random blocks)', () => {
    const next = random(7);
    for (let i = 0; i < 2_000; i += 1) {
      const prefix = 22 + (next() % 6);
      const cidr = parseCidr(`${numberToIp(next())}/${prefix}`)!;
      const { gatewayIp, dhcpStartAddress, dhcpEndAddress } = defaultAddressing(cidr);
      for (const address of [gatewayIp, dhcpStartAddress, dhcpEndAddress]) {
        expect(cidr.isHost(address)).toBe(true);
      }
      expect(cidr.inRange(gatewayIp, dhcpStartAddress, dhcpEndAddress)).toBe(false);
      expect(cidr.toNumber(dhcpEndAddress) - cidr.toNumber(dhcpStartAddress) + 1).toBe(
        cidr.size - 3,
      );
    }
  });

  it('tells overlapping blocks, both ways round (2,000 random pairs)', () => {
    const next = random(11);
    for (let i = 0; i < 2_000; i += 1) {
      const a = parseCidr(`10.${next() % 4}.${next() % 256}.0/${22 + (next() % 6)}`)!;
      const b = parseCidr(`10.${next() % 4}.${next() % 256}.0/${22 + (next() % 6)}`)!;
      const shared = Array.from({ length: a.size }, (_, k) => a.network + k).some(
        (n) => n >= b.network && n < b.network + b.size,
      );
      expect(overlaps(a, b)).toBe(shared);
      expect(overlaps(b, a)).toBe(shared);
    }
  });

  it('warns about reserved and public ranges, not about private ones', () => {
    expect(reservedRangeWarning(parseCidr('10.1.0.0/24')!)).toBeNull();
    expect(reservedRangeWarning(parseCidr('172.20.0.0/22')!)).toBeNull();
    expect(reservedRangeWarning(parseCidr('169.254.1.0/24')!)).toMatch(/link-local/);
    expect(reservedRangeWarning(parseCidr('100.64.0.0/24')!)).toMatch(/carrier-grade NAT/);
    expect(reservedRangeWarning(parseCidr('8.8.8.0/24')!)).toMatch(/not inside a private range/);
  });
});

describe('the CIDR input', () => {
  it.each([
    ['10.0.0.0/24', '10.0.0.0/24'],
    ['300.1.2.999/24', '255.1.2.255/24'],
    ['10.0.0.0/24abc', '10.0.0.0/24'],
    ['10.0 .0.0 / 24', '10.0 .0.0 / 24'],
    ['1a0.0.0.0', '10.0.0.0'],
  ])('keeps %j as %j', (typed, kept) => {
    expect(clampCidrInput(typed)).toBe(kept);
  });
});
