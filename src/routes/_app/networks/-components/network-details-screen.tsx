import { Alert, Button, Center, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconEdit, IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError } from '../../../../api/client';
import { networkMessages, type NetworkDetails } from '../../../../api/contract/networks';
import { errorMessage, networkErrorLeads } from '../../../../components/error-text';
import { PageHeader } from '../../../../components/page-header';
import { authQueries } from '../../../../queries/auth';
import { networkQueries } from '../../../../queries/networks';
import { ActivityCard } from '../../../../components/activity/activity-card';
import { DangerZone } from '../../../../components/danger-zone';
import { ConnectedVms } from './connected-vms';
import { DeleteNetworkDialog } from './delete-network-dialog';
import { NetworkInfoCard } from './network-info-card';
import { NetworkNotFound } from './network-not-found';
import { NetworkUsageCard } from './network-usage-card';

/** `/networks/{id}`: the network, how full it is, who is on it; Edit and Delete for Admins. */
export function NetworkDetailsScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const network = useQuery(networkQueries.detail(id));
  const back = () => void navigate({ to: '/networks' });

  if (network.error instanceof ApiError && network.error.status === 404) return <NetworkNotFound />;
  if (!network.data) {
    return (
      <>
        <PageHeader title="Network" onBack={back} />
        {network.error ? (
          <Alert
            color="red"
            variant="light"
            title={networkErrorLeads.fetchNetworks}
            icon={<IconAlertCircle aria-hidden />}
          >
            {errorMessage(network.error)}
          </Alert>
        ) : (
          <Center py="xl">
            <Loader size="sm" aria-label="Loading network" />
          </Center>
        )}
      </>
    );
  }

  return (
    <>
      <PageHeader title={network.data.name} onBack={back} secondaryTitle={network.data.region} />
      <Stack gap="lg">
        <NetworkActions network={network.data} />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <NetworkInfoCard network={network.data} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <NetworkUsageCard network={network.data} />
          </Grid.Col>
        </Grid>
        <ConnectedVms networkId={id} />
        <ActivityCard filter={{ networkId: id }} />
        <NetworkDangerZone network={network.data} />
      </Stack>
    </>
  );
}

/** Edit, for Admins only, and only while no VM is connected (spec section 4). */
function NetworkActions({ network }: { network: NetworkDetails }) {
  const navigate = useNavigate();
  const { data: session } = useSuspenseQuery(authQueries.check());
  if (!session.user.isAdmin) return null;
  const locked = network.connectedVms > 0;
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconEdit size={16} aria-hidden />}
          disabled={locked}
          onClick={() =>
            void navigate({ to: '/networks/$networkId/edit', params: { networkId: network.id } })
          }
        >
          Edit
        </Button>
      </Group>
      {locked && (
        <Group gap={6} c="dimmed">
          <IconInfoCircle size={16} aria-hidden />
          <Text size="sm">{networkMessages.hasVms}</Text>
        </Group>
      )}
    </Stack>
  );
}

/** Delete, for Admins only, apart from the everyday actions; refused while VMs are connected. */
function NetworkDangerZone({ network }: { network: NetworkDetails }) {
  const { data: session } = useSuspenseQuery(authQueries.check());
  const [deleting, setDeleting] = useState(false);
  if (!session.user.isAdmin) return null;
  const locked = network.connectedVms > 0;
  return (
    <>
      <DangerZone
        heading="Delete this network"
        description={
          locked ? networkMessages.hasVms : 'The network and its address plan are deleted for good.'
        }
        actionLabel="Delete"
        disabled={locked}
        onAction={() => setDeleting(true)}
      />
      <DeleteNetworkDialog
        id={network.id}
        name={network.name}
        opened={deleting}
        onClose={() => setDeleting(false)}
      />
    </>
  );
}
