import { Badge, Tooltip } from '@mantine/core';
import type { CustomerRow } from '../../../../api/contract/reseller';
import { formatDateTime } from '../../../../components/date-format';

/**
 * "Suspended" beside a suspended customer's name (nothing for an active one), since when on
 * hover. Focusable, so that the moment is also there for a keyboard.
 */
export function CustomerStateBadge({
  customer,
}: {
  customer: Pick<CustomerRow, 'state' | 'suspendedAt'>;
}) {
  if (customer.state !== 'suspended') return null;
  const badge = (
    <Badge
      component="span"
      color="orange"
      variant="light"
      radius="sm"
      tt="none"
      miw="max-content"
      style={{ flexShrink: 0 }}
      tabIndex={customer.suspendedAt ? 0 : undefined}
      data-state="suspended"
    >
      Suspended
    </Badge>
  );
  if (!customer.suspendedAt) return badge;
  return (
    <Tooltip
      label={`Suspended since ${formatDateTime(customer.suspendedAt)}`}
      withArrow
      openDelay={200}
      events={{ hover: true, focus: true, touch: true }}
    >
      {badge}
    </Tooltip>
  );
}
