import { createFileRoute } from '@tanstack/react-router';
import { prepareDateFormat } from '../../../components/date-format';
import { customerQueries } from '../../../queries/customers';
import { CustomerDetailsScreen } from './-components/customer-details-screen';
import { idParams } from '../../-components/id-param';

export const Route = createFileRoute('/_app/customers/$customerId')({
  params: idParams('customerId'),
  // Prefetch without waiting: the screen shows its loader, or its error in place.
  loader: ({ context, params }) => {
    if (!params.customerId) return;
    void context.queryClient.prefetchQuery(customerQueries.detail(params.customerId));
    prepareDateFormat();
  },
  component: CustomerPage,
});

function CustomerPage() {
  const { customerId } = Route.useParams();
  return <CustomerDetailsScreen id={customerId} />;
}
