import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import { customerSortColumns } from '../../../api/contract/search-values';
import { DataTable } from '../../../components/data-table/data-table';
import { pagedQueryProps, useStayWithinPages } from '../../../components/data-table/paged-query';
import {
  tableSearchDefaults,
  tableSearchProps,
  tableSearchSchema,
} from '../../../components/data-table/table-search';
import { prepareDateFormat } from '../../../components/date-format';
import { PageHeader } from '../../../components/page-header';
import { customerQueries } from '../../../queries/customers';
import { customerColumns } from './-components/customer-columns';
import { CUSTOMER_DEFAULT_SORT, customerListQuery } from './-components/customer-search';
import { customerErrorLeads } from './-components/customer-texts';
import { CustomersEmptyState } from './-components/customers-empty-state';

/** `/customers?page=2&search=acme&sort=vms.desc`: a copied link reopens the view. */
export const Route = createFileRoute('/_app/customers/')({
  validateSearch: tableSearchSchema(customerSortColumns, CUSTOMER_DEFAULT_SORT),
  search: { middlewares: [stripSearchParams(tableSearchDefaults(CUSTOMER_DEFAULT_SORT))] },
  loaderDeps: ({ search }) => search,
  // Prefetch without waiting: the table shows its spinner (or the previous page) meanwhile, and a
  // failure shows inside the table.
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(customerQueries.list(customerListQuery(deps)));
    prepareDateFormat();
  },
  component: CustomersPage,
});

function CustomersPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const customers = useQuery(customerQueries.list(customerListQuery(search)));
  const addCustomer = () => void navigate({ to: '/customers/new' });

  const goToPage = useCallback(
    (page: number) => void navigate({ search: (prev) => ({ ...prev, page }), replace: true }),
    [navigate],
  );
  useStayWithinPages(customers, search.page, goToPage);

  return (
    <>
      <PageHeader
        title="Customers"
        action={{
          name: 'New customer',
          icon: <IconPlus size={16} aria-hidden />,
          onClick: addCustomer,
        }}
      />
      <DataTable
        title="Your Customers"
        description="The companies you provide the console to, and what they run"
        columns={customerColumns}
        {...pagedQueryProps(customers)}
        getRowId={(row) => String(row.id)}
        {...tableSearchProps(search, (patch, { replace }) => {
          void navigate({ search: (prev) => ({ ...prev, ...patch }), replace });
        })}
        searchPlaceholder="Search customers..."
        emptyMessage="No customers found"
        // Nothing searched and still none: the reseller has no customer yet.
        emptyState={
          search.search.trim() === '' ? <CustomersEmptyState onAdd={addCustomer} /> : undefined
        }
        errorTitle={customerErrorLeads.fetchCustomers}
        onRowClick={(row) =>
          void navigate({ to: '/customers/$customerId', params: { customerId: row.id } })
        }
      />
    </>
  );
}
