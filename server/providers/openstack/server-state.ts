import type { ServerPowerState, ServerState, ServerTask, TaskFault } from '../driver';
import type { NovaServer } from './compute';

const POWER: Record<string, ServerPowerState> = {
  BUILD: 'building',
  ACTIVE: 'running',
  REBOOT: 'running',
  HARD_REBOOT: 'running',
  RESIZE: 'running',
  VERIFY_RESIZE: 'running',
  REVERT_RESIZE: 'running',
  MIGRATING: 'running',
  PASSWORD: 'running',
  REBUILD: 'building',
  SHUTOFF: 'shutoff',
  STOPPED: 'shutoff',
  PAUSED: 'shutoff',
  SUSPENDED: 'shutoff',
  SHELVED: 'shutoff',
  SHELVED_OFFLOADED: 'shutoff',
  ERROR: 'error',
  DELETED: 'deleted',
  SOFT_DELETED: 'deleted',
};

/** Nova's task states, in the product's words. */
export function taskOf(status: string, task: string | null | undefined): ServerTask | null {
  if (status === 'BUILD') return 'spawning';
  if (status === 'RESIZE' || status === 'VERIFY_RESIZE' || task?.startsWith('resize')) {
    return 'resizing';
  }
  if (status === 'REBOOT' || status === 'HARD_REBOOT' || task?.startsWith('reboot')) {
    return 'rebooting';
  }
  if (status === 'REBUILD' || task?.startsWith('rebuild')) return 'rebuilding';
  switch (task) {
    case 'powering-on':
      return 'powering-on';
    case 'powering-off':
      return 'powering-off';
    case 'deleting':
      return 'deleting';
    case 'spawning':
    case 'scheduling':
    case 'block_device_mapping':
    case 'networking':
      return 'spawning';
    default:
      return null;
  }
}

/**
 * Nova's reason for a failed task, in its own words (for the log): its scheduler finding no host
 * with room is told to users as a lack of capacity, anything else as a failure.
 */
export const novaFault = (text: string): TaskFault =>
  /no valid host/i.test(text) ? { engineText: text, kind: 'capacity' } : text;

export function serverStateOf(
  ref: string,
  answer: NovaServer,
  sizeKey: string,
  ports: ServerState['ports'],
): ServerState {
  const { status } = answer.server;
  const powerState = POWER[status] ?? 'error';
  return {
    ref,
    powerState,
    task: powerState === 'error' ? null : taskOf(status, answer.server['OS-EXT-STS:task_state']),
    sizeKey,
    ports,
    fault:
      powerState === 'error'
        ? novaFault(answer.server.fault?.message ?? `The cloud reports the server ${status}`)
        : null,
    usage: { cpu: 0, ram: 0 },
  };
}
