import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_PAUSED } from '../../src/live/live-indicator';
import { anEvent } from './support/activity-fixtures';
import { FakeEventSource, installEventSource } from './support/fake-event-source';
import { serveNetworks, serveRegions } from './support/networks-fixtures';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { serveTeams, signIn } from './support/teams-fixtures';
import { aVmDetails, serveVm, serveVms } from './support/vms-fixtures';

beforeEach(() => installEventSource());
afterEach(() => vi.unstubAllGlobals());

/** The signed-in user of these tests (fixtures' aUser). */
const ME = 7;

const statusShown = (status: string) => screen.findByText(status, { selector: '[data-status] *' });

describe('live events', { timeout: 15_000 }, () => {
  it('opens one stream with the session cookie and shows a VM going Running, without a click', async () => {
    signIn();
    const vm = serveVm(aVmDetails({ status: 'Provisioning' }));
    await renderApp('/virtualMachineDetails/12');
    await statusShown('Provisioning');
    const stream = FakeEventSource.latest();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(stream.url).toMatch(/\/api\/v1\/events$/);
    expect(stream.init).toEqual({ withCredentials: true });
    stream.open();
    const before = vm.requests();
    stream.send(
      anEvent(1, {
        subject: { type: 'vm', id: 12, name: 'web-01' },
        action: 'vm.status',
        outcome: 'observed',
        actor: { type: 'system', id: null, name: 'System' },
        detail: { from: 'Provisioning', to: 'Running' },
      }),
    );
    expect(await statusShown('Running')).toBeInTheDocument();
    // Written into the cache: the details were not asked for again.
    expect(vm.requests()).toBe(before);
  });

  it('reads a list again when an event touches it', async () => {
    signIn();
    serveRegions();
    const networks = serveNetworks();
    await renderApp('/networks');
    await screen.findByText('net-01');
    FakeEventSource.latest().open();
    const before = networks.queries.length;
    FakeEventSource.latest().send(
      anEvent(2, {
        subject: { type: 'network', id: 99, name: 'backend' },
        action: 'network.create',
        networkId: 99,
        teamId: null,
      }),
    );
    await waitFor(() => expect(networks.queries.length).toBe(before + 1));
  });

  it('says when the stream is down, polls meanwhile, and stops saying so when it is back', async () => {
    signIn();
    const vm = serveVm(aVmDetails({ status: 'Starting' }));
    await renderApp('/virtualMachineDetails/12');
    await statusShown('Starting');
    const stream = FakeEventSource.latest();
    stream.open();
    expect(screen.queryByText(LIVE_PAUSED)).not.toBeInTheDocument();
    stream.drop();
    expect(await screen.findByRole('status', { name: '' })).toHaveTextContent(LIVE_PAUSED);
    // Down: the VM in transition is asked for again, and again.
    const before = vm.requests();
    await waitFor(() => expect(vm.requests()).toBeGreaterThan(before + 1), { timeout: 8_000 });
    stream.open();
    await waitFor(() => expect(screen.queryByText(LIVE_PAUSED)).not.toBeInTheDocument());
  });

  it('opens a new stream, resuming after the last event, when the browser gave up', async () => {
    signIn();
    serveVm();
    await renderApp('/virtualMachineDetails/12');
    await statusShown('Running');
    const first = FakeEventSource.latest();
    first.open();
    first.send(anEvent(41, { subject: { type: 'vm', id: 12, name: 'web-01' } }));
    first.drop(true);
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 4_000 });
    expect(FakeEventSource.latest().url).toMatch(/\/api\/v1\/events\?lastEventId=41$/);
  });

  it('opens the stream again at once when the server goes, after the event it names, without a pause', async () => {
    signIn();
    const vm = serveVm();
    await renderApp('/virtualMachineDetails/12');
    await statusShown('Running');
    const first = FakeEventSource.latest();
    first.open();
    first.send(anEvent(41, { subject: { type: 'vm', id: 12, name: 'web-01' } }));
    // What the event itself reads again is read before the count.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = vm.requests();
    // The server handled events up to 57 that were not this user's to see.
    first.reconnect(57);
    // Closed by the console, so that the browser does not reconnect on its own as well.
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    // After a pause of up to 1.25 s, spread so that clients do not all come back together.
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 3_000 });
    expect(FakeEventSource.latest().url).toMatch(/\/api\/v1\/events\?lastEventId=57$/);
    FakeEventSource.latest().open();
    // Nothing was missed: the stream never showed as paused, and nothing was read again.
    expect(screen.queryByText(LIVE_PAUSED)).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(vm.requests()).toBe(before);
  });

  it('reads the screen afresh when told it missed too much, and resumes from the newest event', async () => {
    signIn();
    const vm = serveVm();
    await renderApp('/virtualMachineDetails/12');
    await statusShown('Running');
    const stream = FakeEventSource.latest();
    stream.open();
    const before = vm.requests();
    stream.reload(2_041);
    await waitFor(() => expect(vm.requests()).toBe(before + 1));
    stream.drop(true);
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 4_000 });
    expect(FakeEventSource.latest().url).toMatch(/\/api\/v1\/events\?lastEventId=2041$/);
  });

  it('goes to the sign-in page when the stream ended because the session did', async () => {
    signIn();
    serveVm();
    const { router } = await renderApp('/virtualMachineDetails/12');
    await statusShown('Running');
    FakeEventSource.latest().open();
    server.use(http.get(api('auth/check'), () => fail(401, 'Not authenticated')));
    FakeEventSource.latest().drop(true);
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
  });

  it('toasts an operation of mine that failed while I was on another page, with the reason', async () => {
    signIn();
    serveTeams();
    serveVms();
    await renderApp('/virtualMachines');
    await screen.findByText('vm-01');
    FakeEventSource.latest().open();
    FakeEventSource.latest().send(
      anEvent(3, {
        actor: { type: 'user', id: ME, name: 'Ada Lovelace' },
        subject: { type: 'vm', id: 12, name: 'web-01' },
        action: 'vm.start',
        outcome: 'failed',
        detail: { reason: 'No host has room' },
      }),
    );
    expect(await screen.findByText('web-01: Start failed: No host has room')).toBeInTheDocument();
    FakeEventSource.latest().send(
      anEvent(4, {
        actor: { type: 'user', id: ME, name: 'Ada Lovelace' },
        subject: { type: 'vm', id: 13, name: 'web-02' },
        action: 'vm.stop',
        outcome: 'succeeded',
      }),
    );
    expect(await screen.findByText('web-02 is Stopped')).toBeInTheDocument();
  });

  it("toasts nobody else's operation, nor mine on the VM's own page", async () => {
    signIn();
    serveVm();
    await renderApp('/virtualMachineDetails/12');
    await statusShown('Running');
    const stream = FakeEventSource.latest();
    stream.open();
    stream.send(
      anEvent(5, {
        actor: { type: 'user', id: 99, name: 'Someone Else' },
        subject: { type: 'vm', id: 30, name: 'theirs' },
        action: 'vm.start',
        outcome: 'succeeded',
      }),
    );
    stream.send(
      anEvent(6, {
        actor: { type: 'user', id: ME, name: 'Ada Lovelace' },
        subject: { type: 'vm', id: 12, name: 'web-01' },
        action: 'vm.stop',
        outcome: 'succeeded',
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByText(/theirs is Running/)).not.toBeInTheDocument();
    expect(screen.queryByText(/web-01 is Stopped/)).not.toBeInTheDocument();
  });
});
