import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';

export const Route = createFileRoute('/_app/createUser')({
  component: AddUserPage,
});

function AddUserPage() {
  return <PageHeader title="Add User" withBack />;
}
