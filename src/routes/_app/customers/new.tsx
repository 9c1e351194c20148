import { createFileRoute } from '@tanstack/react-router';
import { CreateCustomerScreen } from './-components/create-customer-screen';

export const Route = createFileRoute('/_app/customers/new')({
  component: CreateCustomerScreen,
});
