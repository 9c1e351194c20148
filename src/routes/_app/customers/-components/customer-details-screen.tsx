import { Alert, Center, Loader, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ApiError } from '../../../../api/client';
import { errorMessage } from '../../../../components/error-text';
import { PageHeader } from '../../../../components/page-header';
import { customerQueries } from '../../../../queries/customers';
import { NotFoundPage } from '../../../-components/not-found-screen';
import { CustomerAdminsTable } from './customer-admins-table';
import { CustomerFigures } from './customer-figures';
import { CustomerLimitsCard } from './customer-limits-card';
import { CustomerLogo } from './customer-logo';
import { CustomerStateBadge } from './customer-state-badge';
import { SuspendCustomerZone, SuspendedNotice } from './customer-suspension';
import { customerErrorLeads } from './customer-texts';

/**
 * `/customers/{id}`: one of the reseller's companies, its figures, its limits and its Admins;
 * suspending it at the foot, resuming it from the notice a suspended one shows at the top.
 */
export function CustomerDetailsScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const customer = useQuery({ ...customerQueries.detail(id), enabled: id > 0 });
  const back = () => void navigate({ to: '/customers' });

  // Not one of this reseller's companies (or no id at all): the address leads nowhere.
  if (id === 0 || (customer.error instanceof ApiError && customer.error.status === 404))
    return <NotFoundPage />;
  if (!customer.data) {
    return (
      <>
        <PageHeader title="Customer" onBack={back} />
        {customer.error ? (
          <Alert
            color="red"
            variant="light"
            title={customerErrorLeads.fetchCustomer}
            icon={<IconAlertCircle aria-hidden />}
          >
            {errorMessage(customer.error)}
          </Alert>
        ) : (
          <Center py="xl">
            <Loader size="sm" aria-label="Loading customer" />
          </Center>
        )}
      </>
    );
  }

  const details = customer.data;
  return (
    <>
      <PageHeader
        title={details.name}
        onBack={back}
        leading={<CustomerLogo name={details.name} logoUrl={details.logoUrl} size={44} />}
        trailing={<CustomerStateBadge customer={details} />}
      />
      <Stack gap="lg">
        {details.state === 'suspended' && <SuspendedNotice customer={details} />}
        <CustomerFigures customer={details} />
        <CustomerLimitsCard customer={details} />
        <CustomerAdminsTable
          admins={details.adminList}
          isFetching={customer.isFetching}
          onRefresh={() => void customer.refetch()}
        />
        {details.state === 'active' && <SuspendCustomerZone customer={details} />}
      </Stack>
    </>
  );
}
