import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Configuration } from '../../../../api/contract/vms';
import { limitQueries } from '../../../../queries/limits';
import type { CreateVmValues } from './create-vm-form';
import { roomIn, roomNote } from './create-vm-room';

/**
 * Once a region is chosen: what the company may still create there, from `GET /limits`, and why
 * the chosen size and number of instances do not fit when they do not. Advice only: Create stays
 * enabled, as the figures may be a moment old (a VM deleted meanwhile frees room) and the server
 * checks every limit anyway and says which one a request crosses. Nothing shows while the limits
 * load, when there are none, or when they cannot be had (creating must not hang on them).
 */
export function CreateVmRoomNote({
  values,
  sizes,
}: {
  values: CreateVmValues;
  sizes: readonly Configuration[] | undefined;
}) {
  const { regionId, configurationId, numberOfInstances, allocatePublicIp } = values;
  const limits = useQuery({ ...limitQueries.company(), enabled: regionId !== null });
  if (regionId === null || !limits.data) return null;
  const size = sizes?.find((configuration) => configuration.id === configurationId);
  const note = roomNote(roomIn(limits.data.limits, regionId), {
    size,
    instances: numberOfInstances ?? undefined,
    publicIp: allocatePublicIp,
  });
  if (!note) return null;
  return (
    <Alert
      // Polite: it changes with every choice and must not interrupt.
      role="status"
      aria-label="Room left"
      color={note.shortfall ? 'yellow' : 'blue'}
      variant="light"
      icon={note.shortfall ? <IconAlertTriangle aria-hidden /> : <IconInfoCircle aria-hidden />}
    >
      <Text size="sm">{note.text}</Text>
      {note.shortfall && (
        <Text size="sm" mt={4} fw={500}>
          {note.shortfall}
        </Text>
      )}
    </Alert>
  );
}
