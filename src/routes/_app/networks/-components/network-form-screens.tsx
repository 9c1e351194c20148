import { Alert, Center, Loader } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ApiError } from '../../../../api/client';
import { networkMessages } from '../../../../api/contract/networks';
import { errorMessage, networkErrorLeads } from '../../../../components/error-text';
import { PageHeader } from '../../../../components/page-header';
import { authQueries } from '../../../../queries/auth';
import { networkQueries } from '../../../../queries/networks';
import { NetworkForm } from './network-form';
import { emptyNetworkForm, formValuesOf } from './network-form-values';
import { NetworkNotFound } from './network-not-found';

function Refusal({ children }: { children: ReactNode }) {
  return (
    <Alert color="yellow" variant="light" icon={<IconLock aria-hidden />} maw={760}>
      {children}
    </Alert>
  );
}

/** `/createNetwork`. Only Admins create networks; anyone else is told so instead of a form. */
export function CreateNetworkScreen() {
  const navigate = useNavigate();
  const { data: session } = useSuspenseQuery(authQueries.check());
  const toList = () => void navigate({ to: '/networks' });
  return (
    <>
      <PageHeader title="Create Network" onBack={toList} />
      {session.user.isAdmin ? (
        <NetworkForm
          initialValues={emptyNetworkForm}
          onSaved={(id) => void navigate({ to: '/networks/$networkId', params: { networkId: id } })}
          onCancel={toList}
        />
      ) : (
        <Refusal>{networkMessages.adminsOnly}</Refusal>
      )}
    </>
  );
}

/** `/networks/{id}/edit`: the stored network in the form, its region and type fixed. */
export function EditNetworkScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const { data: session } = useSuspenseQuery(authQueries.check());
  const network = useQuery(networkQueries.detail(id));
  const toDetails = () => void navigate({ to: '/networks/$networkId', params: { networkId: id } });

  if (network.error instanceof ApiError && network.error.status === 404) return <NetworkNotFound />;

  let content: ReactNode;
  if (!network.data) {
    content = network.error ? (
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
    );
  } else if (!session.user.isAdmin) {
    content = <Refusal>{networkMessages.adminsOnly}</Refusal>;
  } else if (network.data.connectedVms > 0) {
    content = <Refusal>{networkMessages.hasVms}</Refusal>;
  } else {
    content = (
      <NetworkForm
        // After a save elsewhere the form starts from the stored values.
        key={`${id}:${network.data.updatedAt.getTime()}`}
        editing={{ id, region: network.data.region }}
        initialValues={formValuesOf(network.data)}
        onSaved={toDetails}
        onCancel={toDetails}
      />
    );
  }

  return (
    <>
      <PageHeader
        title={network.data ? `Edit ${network.data.name}` : 'Edit Network'}
        onBack={toDetails}
      />
      {content}
    </>
  );
}
