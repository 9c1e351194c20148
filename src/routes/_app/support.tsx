import { Stack } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';
import { authQueries } from '../../queries/auth';
import { SupportContact } from './-components/support/support-contact';
import { SupportFaq } from './-components/support/support-faq';

export const Route = createFileRoute('/_app/support')({
  component: SupportPage,
});

function SupportPage() {
  const {
    data: { user },
  } = useSuspenseQuery(authQueries.check());
  return (
    <>
      <PageHeader
        title="Support"
        secondaryTitle="Answers to common questions, and a line to our team"
      />
      <Stack gap="lg">
        <SupportFaq />
        <SupportContact email={user.email} />
      </Stack>
    </>
  );
}
