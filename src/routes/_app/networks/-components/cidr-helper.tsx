import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconWand } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { parseCidr } from '../../../../api/contract/ip';
import type { CidrDetails } from '../../../../api/contract/networks';
import { errorMessage, networkErrorLeads } from '../../../../components/error-text';
import { networkQueries } from '../../../../queries/networks';

/** Asked once typing pauses this long, not for every keystroke. */
export const CIDR_HELPER_DEBOUNCE_MS = 400;

interface CidrHelperProps {
  /** The CIDR block as typed. */
  cidr: string;
  regionId: number | null;
  /** The network being edited, which must not count as overlapping itself. */
  networkId?: number;
  /**
   * Standard networks only: fills the gateway and the DHCP range, which are shown only then (a
   * custom network is layer 2, with neither).
   */
  onFill?: (details: CidrDetails) => void;
}

/**
 * As the block becomes valid: its gateway and DHCP range for a standard network, and any warning
 * (overlap with the company's networks in the region, reserved ranges), computed by the server.
 */
export function CidrHelper({ cidr, regionId, networkId, onFill }: CidrHelperProps) {
  const compact = cidr.replace(/\s+/g, '');
  const [settled] = useDebouncedValue(compact, CIDR_HELPER_DEBOUNCE_MS);
  const valid = parseCidr(settled) !== null && settled === compact;
  const details = useQuery({
    ...networkQueries.cidr({ cidr: settled, regionId: regionId ?? undefined, networkId }),
    enabled: valid,
  });
  if (!valid) return null;

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      bg="var(--mantine-color-default-hover)"
      role="status"
      aria-label="CIDR details"
    >
      {details.error ? (
        <Alert color="red" variant="light" title={networkErrorLeads.fetchCidrDetails}>
          {errorMessage(details.error)}
        </Alert>
      ) : !details.data ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Checking {settled}...
          </Text>
        </Group>
      ) : (
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <Value label="Network" value={details.data.cidr} />
            {onFill && (
              <>
                <Value label="Gateway" value={details.data.gatewayIp} />
                <Value
                  label="DHCP range"
                  value={`${details.data.dhcpStartAddress} - ${details.data.dhcpEndAddress}`}
                />
              </>
            )}
          </SimpleGrid>
          {details.data.warning && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} p="xs">
              {details.data.warning}
            </Alert>
          )}
          {onFill && (
            <Group>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconWand size={14} aria-hidden />}
                onClick={() => onFill(details.data)}
              >
                Use these values
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Paper>
  );
}

function Value({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" ff="monospace">
        {value}
      </Text>
    </div>
  );
}
