import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '../../../api/contract/zod';
import { prepareDateFormat } from '../../../components/date-format';
import { customerQueries } from '../../../queries/customers';
import { usageQueries } from '../../../queries/usage';
import {
  CUSTOMER_ACTIVITY_ROWS,
  CustomerDetailsScreen,
} from './-components/customer-details-screen';
import { shownMonth } from './-components/usage-month';
import { idParams } from '../../-components/id-param';

/**
 * `/customers/42?month=2026-10&page=2`: the usage card's month (none: the current one) and the
 * activity's page. Kept small: the route tree comes with the sign-in page.
 */
const customerSearch = z.object({
  month: z.catch(z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/))), undefined),
  page: z._default(z.catch(z.coerce.number().check(z.int(), z.gte(1)), 1), 1),
});

export const Route = createFileRoute('/_app/customers/$customerId')({
  params: idParams('customerId'),
  validateSearch: customerSearch,
  search: { middlewares: [stripSearchParams({ page: 1 })] },
  loaderDeps: ({ search }) => search,
  // Prefetch without waiting: each card shows its loader, or its error in place.
  loader: ({ context: { queryClient }, params: { customerId }, deps }) => {
    if (!customerId) return;
    void queryClient.prefetchQuery(customerQueries.detail(customerId));
    void queryClient.prefetchQuery(
      usageQueries.month({ month: shownMonth(deps.month), companyId: customerId }),
    );
    void queryClient.prefetchQuery(
      customerQueries.activity(customerId, {
        page: deps.page,
        rowsPerPage: CUSTOMER_ACTIVITY_ROWS,
      }),
    );
    prepareDateFormat();
  },
  component: CustomerPage,
});

function CustomerPage() {
  const { customerId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <CustomerDetailsScreen
      id={customerId}
      search={search}
      // A month replaces the history entry's month (Back leaves the page); a page adds one, as
      // every list's paging does.
      onSearchChange={(patch, { replace }) =>
        void navigate({ search: (prev) => ({ ...prev, ...patch }), replace })
      }
    />
  );
}
