import { Box, Paper, SimpleGrid, Text } from '@mantine/core';
import type { CustomerRow } from '../../../../api/contract/reseller';
import { formatDate, formatDateTime } from '../../../../components/date-format';
import { vmsRunningOfTotal } from './customer-texts';

/** One figure: its name over its value, in the card's list of terms. */
export function Figure({ term, value, title }: { term: string; value: string; title?: string }) {
  return (
    <Box>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {term}
      </Text>
      <Text
        component="dd"
        m={0}
        mt={2}
        fz="xl"
        fw={700}
        title={title}
        data-term={term}
        style={{ whiteSpace: 'nowrap' }}
      >
        {value}
      </Text>
    </Box>
  );
}

/** What the company is and holds: its people and its VMs' share of the infrastructure. */
export function CustomerFigures({ customer }: { customer: CustomerRow }) {
  return (
    <Paper component="section" aria-label="Figures" withBorder radius="md" shadow="xs" p="lg">
      <SimpleGrid
        component="dl"
        cols={{ base: 2, sm: 4, xl: 7 }}
        spacing="lg"
        verticalSpacing="md"
        m={0}
      >
        <Figure term="Admins" value={String(customer.admins)} />
        <Figure term="Users" value={String(customer.users)} />
        <Figure term="VMs running" value={vmsRunningOfTotal(customer)} title="Running / total" />
        <Figure term="vCPUs" value={String(customer.vcpus)} />
        <Figure term="RAM (GB)" value={String(customer.ramGb)} />
        <Figure term="Public IPs" value={String(customer.publicIps)} />
        <Figure
          term="Created"
          value={formatDate(customer.createdAt)}
          title={formatDateTime(customer.createdAt)}
        />
      </SimpleGrid>
    </Paper>
  );
}
