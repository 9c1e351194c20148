import { Alert, Center, Loader, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ApiError } from '../../../../api/client';
import { errorMessage } from '../../../../components/error-text';
import { PageHeader } from '../../../../components/page-header';
import { customerQueries } from '../../../../queries/customers';
import { NotFoundPage } from '../../../-components/not-found-screen';
import { CompanyActivity } from '../../-components/activity/company-activity';
import { CustomerAdminsTable } from './customer-admins-table';
import { CustomerFigures } from './customer-figures';
import { CustomerLimitsCard } from './customer-limits-card';
import { CustomerLogo } from './customer-logo';
import { CustomerStateBadge } from './customer-state-badge';
import { SuspendCustomerZone, SuspendedNotice } from './customer-suspension';
import { customerErrorLeads } from './customer-texts';
import { CustomerUsageCard } from './customer-usage-card';

/** The page's list state in its URL: the usage card's month and the activity's page. */
export interface CustomerPageSearch {
  month?: string;
  page: number;
}

/** A page of the customer's activity: a card among others here, not the whole screen. */
export const CUSTOMER_ACTIVITY_ROWS = 10;

/**
 * `/customers/{id}`: one of the reseller's companies, its figures, its limits, its usage by month,
 * its Admins and its activity; suspending it at the foot, resuming it from the notice a suspended
 * one shows at the top.
 */
export function CustomerDetailsScreen({
  id,
  search,
  onSearchChange,
}: {
  id: number;
  search: CustomerPageSearch;
  onSearchChange: (patch: Partial<CustomerPageSearch>, options: { replace: boolean }) => void;
}) {
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
      {/*
        On a phone the toasts span the screen's foot: room below the last card lets its foot (the
        activity's paging, the danger zone's button) scroll clear of them.
      */}
      <Stack gap="lg" pb={{ base: 96, sm: 0 }}>
        {details.state === 'suspended' && <SuspendedNotice customer={details} />}
        <CustomerFigures customer={details} />
        <CustomerLimitsCard customer={details} />
        <CustomerUsageCard
          customer={details}
          month={search.month}
          onMonthChange={(month) => onSearchChange({ month }, { replace: true })}
        />
        <CustomerAdminsTable
          admins={details.adminList}
          isFetching={customer.isFetching}
          onRefresh={() => void customer.refetch()}
        />
        <CompanyActivity
          filters={{ page: search.page }}
          onChange={({ page }, options) => page && onSearchChange({ page }, options)}
          source={(query) => customerQueries.activity(id, query)}
          withFilters={false}
          rowsPerPage={CUSTOMER_ACTIVITY_ROWS}
        />
        {details.state === 'active' && <SuspendCustomerZone customer={details} />}
      </Stack>
    </>
  );
}
