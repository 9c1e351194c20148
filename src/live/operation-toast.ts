import type { ActivityAction, ActivityEvent } from '../api/contract/activity';

/** How each operation's end reads: the VM's new state, or the lead the VM's page shows. */
const endings: Partial<Record<ActivityAction, { done: string; failed: string }>> = {
  'vm.created': { done: 'is Running', failed: 'Provisioning failed' },
  'vm.start': { done: 'is Running', failed: 'Start failed' },
  'vm.reset': { done: 'is Running', failed: 'Reset failed' },
  'vm.stop': { done: 'is Stopped', failed: 'Stop failed' },
  'vm.upgrade': { done: 'was upgraded', failed: 'Upgrade failed' },
  'vm.reinstall': { done: 'was reinstalled', failed: 'Reinstall failed' },
  'vm.snapshot': { done: 'has a new snapshot', failed: 'Snapshot failed' },
  'vm.restore': { done: 'was restored from its snapshot', failed: 'Restore failed' },
  'vm.snapshotDelete': { done: 'has one snapshot fewer', failed: 'Snapshot delete failed' },
  'vm.delete': { done: 'was deleted', failed: 'Delete failed' },
};

/** The page that already shows the subject's outcome, so that no toast repeats it there. */
const pageOf = (event: ActivityEvent) => `/virtualMachineDetails/${event.subject.id}`;

/**
 * The toast for an operation the signed-in user started that ended while they were on another
 * page ('web-1 is Running'; 'web-1: Start failed: <the engine's reason>'), or undefined.
 */
export function operationToast(
  event: ActivityEvent,
  me: number,
  pathname: string,
): { message: string; type: 'success' | 'error' } | undefined {
  const ending = endings[event.action];
  if (!ending || event.actor.type !== 'user' || event.actor.id !== me) return undefined;
  if (event.outcome !== 'succeeded' && event.outcome !== 'failed') return undefined;
  const here = pathname.includes(pageOf(event)) && event.action !== 'vm.delete';
  if (here) return undefined;
  const name = event.subject.name;
  if (event.outcome === 'succeeded') return { message: `${name} ${ending.done}`, type: 'success' };
  const reason = typeof event.detail.reason === 'string' ? `: ${event.detail.reason}` : '';
  return { message: `${name}: ${ending.failed}${reason}`, type: 'error' };
}
