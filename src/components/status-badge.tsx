import { Badge, Loader } from '@mantine/core';
import { vmRules, type VmStatus } from '../api/contract/vms';

/** The tones of spec section 2: what a status looks like wherever a VM is listed or shown. */
export type StatusTone = 'green' | 'red' | 'pale-red' | 'amber' | 'blue';

export const statusTones: Record<VmStatus, StatusTone> = {
  Running: 'green',
  Stopped: 'red',
  Shutoff: 'red',
  Error: 'pale-red',
  Provisioning: 'amber',
  Starting: 'blue',
  Stopping: 'blue',
  Resizing: 'blue',
  Reinstalling: 'blue',
  Restoring: 'blue',
};

const looks: Record<StatusTone, { color: string; variant: 'filled' | 'light' }> = {
  green: { color: 'green', variant: 'filled' },
  red: { color: 'red', variant: 'filled' },
  // Paler than Stopped, so a failed VM does not read as a merely stopped one.
  'pale-red': { color: 'red', variant: 'light' },
  amber: { color: 'yellow', variant: 'filled' },
  blue: { color: 'blue', variant: 'filled' },
};

/** A VM's status as a coloured badge; a status in transition spins. */
export function StatusBadge({ status }: { status: VmStatus }) {
  const tone = statusTones[status];
  const { color, variant } = looks[tone];
  return (
    <Badge
      // Inline, so it can sit in a line of text (a page's secondary title).
      component="span"
      color={color}
      variant={variant}
      autoContrast
      radius="sm"
      // As the API spells it, and never cut short by a narrow column.
      tt="none"
      miw="max-content"
      data-status={status}
      data-tone={tone}
      leftSection={
        vmRules.isTransitional(status) ? (
          <Loader size={10} color="currentColor" aria-hidden />
        ) : null
      }
    >
      {status}
    </Badge>
  );
}
