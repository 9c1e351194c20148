import {
  Anchor,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconExternalLink, IconUserPlus, IconUserCog } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/page-header';
import { authQueries } from '../../queries/auth';

export const Route = createFileRoute('/_app/orderServices')({
  // Resellers only (spec section 6): anybody else lands on the dashboard instead.
  beforeLoad: async ({ context }) => {
    const { user } = await context.queryClient.ensureQueryData(authQueries.check());
    if (!user.isReseller) throw redirect({ to: '/', replace: true });
  },
  component: OrderServicesPage,
});

function OrderServicesPage() {
  const {
    data: { user },
  } = useSuspenseQuery(authQueries.check());
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader
        title="Order Services"
        secondaryTitle="Order forms open in a new tab"
        // Reached from the Dashboard (the sidebar has no link here): back goes there.
        onBack={() => void navigate({ to: '/' })}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <OrderCard
          title="New Customer"
          icon={<IconUserPlus size={26} aria-hidden />}
          url={user.orderUrls.newCustomer}
        >
          Sign up a customer who is new to you: their company, the first administrator of their
          console account and the services they start with.
        </OrderCard>
        <OrderCard
          title="Account Changes"
          icon={<IconUserCog size={26} aria-hidden />}
          url={user.orderUrls.accountChanges}
        >
          Change an existing customer&apos;s account: add or remove services, change their plan or
          contacts, or close the account.
        </OrderCard>
      </SimpleGrid>
    </>
  );
}

interface OrderCardProps {
  title: string;
  icon: ReactNode;
  /** The order form; null when none has been set up for the reseller. */
  url: string | null;
  children: ReactNode;
}

function OrderCard({ title, icon, url, children }: OrderCardProps) {
  const headingId = `order-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <Card
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      shadow="xs"
      padding="lg"
      data-disabled={url ? undefined : true}
    >
      <Stack gap="md" h="100%">
        <Group gap="md" wrap="nowrap">
          <ThemeIcon size={48} radius="md" variant="light" color={url ? undefined : 'gray'}>
            {icon}
          </ThemeIcon>
          <Title order={3} size="h4" id={headingId}>
            {title}
          </Title>
        </Group>
        <Text size="sm" c="dimmed" style={{ flexGrow: 1 }}>
          {children}
        </Text>
        {url ? (
          <Button
            component="a"
            href={url}
            target="_blank"
            // The order form is another site: it gets neither this window nor where it came from.
            rel="noopener noreferrer"
            rightSection={<IconExternalLink size={16} aria-hidden />}
            aria-label={`Open order form: ${title} (opens in a new tab)`}
            style={{ alignSelf: 'flex-start' }}
          >
            Open order form
          </Button>
        ) : (
          <Stack gap={6}>
            <Button disabled style={{ alignSelf: 'flex-start' }}>
              Open order form
            </Button>
            <Text size="sm" c="dimmed">
              This order form has not been set up for your account yet.{' '}
              <Anchor component={Link} to="/support" size="sm">
                Contact support
              </Anchor>{' '}
              to have it added.
            </Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
