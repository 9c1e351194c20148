import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconDownload, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CompanyUsage } from '../../../../api/contract/usage';
import type { CustomerDetails } from '../../../../api/contract/reseller';
import { DataTable } from '../../../../components/data-table/data-table';
import { downloadTextFile } from '../../../../components/download-file';
import { errorMessage } from '../../../../components/error-text';
import { usageMutations, usageQueries } from '../../../../queries/usage';
import { Figure } from './customer-figures';
import { customerErrorLeads, formatHours } from './customer-texts';
import { publicIpUsageColumns, snapshotUsageColumns, vmUsageColumns } from './usage-columns';
import { monthLabel, monthsOffered, shownMonth } from './usage-month';

interface CustomerUsageCardProps {
  customer: Pick<CustomerDetails, 'id' | 'name' | 'createdAt'>;
  /** The month in the URL (`?month=2026-11`); none: the current one. */
  month: string | undefined;
  /** Undefined for the current month, which the URL leaves out. */
  onMonthChange: (month: string | undefined) => void;
}

/** `acme-corporation`: the customer's name as a file name's part. */
const fileNamePart = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'customer';

/**
 * `/customers/{id}`'s usage for billing: a month's totals, each VM's hours per size, each public
 * address's and each snapshot's, from `GET /reseller/usage?companyId=`; the same month as CSV for
 * a billing system.
 */
export function CustomerUsageCard({
  customer,
  month: asked,
  onMonthChange,
}: CustomerUsageCardProps) {
  const month = shownMonth(asked);
  const current = shownMonth(undefined);
  const usage = useQuery(usageQueries.month({ month, companyId: customer.id }));
  const download = useMutation(usageMutations.downloadCsv());
  const months = useMemo(
    () =>
      monthsOffered(customer.createdAt, month).map((value) => ({
        value,
        label: monthLabel(value),
      })),
    [customer.createdAt, month],
  );

  const saveCsv = () =>
    download.mutate(
      { month, companyId: customer.id },
      {
        onSuccess: (csv) =>
          downloadTextFile(`usage-${month}-${fileNamePart(customer.name)}.csv`, csv, 'text/csv'),
      },
    );

  // The month on screen: the one asked for, or the one before while it loads.
  const data = usage.data;
  const company = data?.companies.find((row) => row.companyId === customer.id);
  const dataMonth = data?.month ?? month;

  let body;
  if (usage.error && !data) {
    body = (
      <Alert
        color="red"
        variant="light"
        title={customerErrorLeads.fetchUsage}
        icon={<IconAlertCircle aria-hidden />}
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(usage.error)}</Text>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} aria-hidden />}
            loading={usage.isFetching}
            onClick={() => void usage.refetch()}
          >
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!data) {
    body = (
      <Center py="xl">
        <Loader size="sm" aria-label="Loading usage" />
      </Center>
    );
  } else if (!company || rowsOf(company) === 0) {
    body = (
      <Text ta="center" c="dimmed" py="lg" size="sm">
        No usage in {monthLabel(dataMonth)}
      </Text>
    );
  } else {
    body = <UsageTotals totals={company.totals} />;
  }

  return (
    <Stack component="section" aria-label="Usage" gap="md">
      <Paper withBorder radius="md" shadow="xs" p="lg">
        <Group justify="space-between" align="flex-start" gap="sm" mb="md">
          <Stack gap={2} style={{ flex: '1 1 16rem' }}>
            <Title order={3} size="h4">
              Usage
            </Title>
            <Text size="sm" c="dimmed">
              What the customer&apos;s VMs, public IPs and snapshots used in a calendar month (UTC),
              to bill from
            </Text>
          </Stack>
          {/* On a phone each takes the card's width, as the other cards' buttons do. */}
          <Group gap="xs" wrap="wrap" justify="flex-end" style={{ flex: '1 1 18rem' }}>
            <Select
              aria-label="Month"
              data={months}
              value={month}
              onChange={(next) => next && onMonthChange(next === current ? undefined : next)}
              allowDeselect={false}
              maxDropdownHeight={260}
              w={{ base: '100%', xs: 200 }}
            />
            <Button
              w={{ base: '100%', xs: 'auto' }}
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={download.isPending}
              onClick={saveCsv}
            >
              Download CSV
            </Button>
          </Group>
        </Group>
        {download.error && (
          <Alert
            color="red"
            variant="light"
            mb="md"
            title={customerErrorLeads.downloadUsage}
            icon={<IconAlertCircle aria-hidden />}
            // The message goes when read, or with the next try.
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => download.reset()}
          >
            {errorMessage(download.error)}
          </Alert>
        )}
        <div aria-busy={usage.isPlaceholderData || undefined}>{body}</div>
      </Paper>
      {company && rowsOf(company) > 0 && (
        <UsageTables company={company} month={dataMonth} isFetching={usage.isFetching} />
      )}
    </Stack>
  );
}

const rowsOf = (company: CompanyUsage) =>
  company.vms.length + company.publicIps.length + company.snapshots.length;

/**
 * The month's totals: what per-hour, per-vCPU, per-GB, per-address and per-GB of snapshot prices
 * multiply.
 */
function UsageTotals({ totals }: { totals: CompanyUsage['totals'] }) {
  return (
    <SimpleGrid
      component="dl"
      cols={{ base: 2, sm: 3, lg: 6 }}
      spacing="lg"
      verticalSpacing="md"
      m={0}
    >
      <Figure term="VM hours existed" value={formatHours(totals.vmExistedHours, 2)} />
      <Figure term="VM hours ran" value={formatHours(totals.vmRanHours, 2)} />
      <Figure term="vCPU-hours" value={formatHours(totals.vcpuRanHours, 2)} />
      <Figure term="GB-RAM-hours" value={formatHours(totals.ramGbRanHours, 2)} />
      <Figure term="Public-IP hours" value={formatHours(totals.publicIpHours, 2)} />
      <Figure term="Snapshot GB-hours" value={formatHours(totals.snapshotGbHours, 2)} />
    </SimpleGrid>
  );
}

function UsageTables({
  company,
  month,
  isFetching,
}: {
  company: CompanyUsage;
  month: string;
  isFetching: boolean;
}) {
  const ipColumns = useMemo(
    () => publicIpUsageColumns(new Map(company.vms.map((vm) => [vm.vmId, vm.vmName]))),
    [company.vms],
  );
  return (
    <>
      <DataTable
        title="VM usage"
        description="Each VM in each size it had: the hours it existed and the hours it ran"
        columns={vmUsageColumns}
        data={company.vms}
        getRowId={(row) => `${row.vmId}/${row.configurationId}/${row.from.toISOString()}`}
        isFetching={isFetching}
        emptyMessage={`No VMs in ${monthLabel(month)}`}
      />
      <DataTable
        title="Public IP usage"
        description="Each public address and the hours it was held"
        columns={ipColumns}
        data={company.publicIps}
        getRowId={(row) => `${row.address}/${row.from.toISOString()}`}
        isFetching={isFetching}
        emptyMessage={`No public IPs in ${monthLabel(month)}`}
      />
      <DataTable
        title="Snapshot usage"
        description="Each snapshot, its size and the hours it was held"
        columns={snapshotUsageColumns}
        data={company.snapshots}
        getRowId={(row) => `${row.snapshotId}/${row.from.toISOString()}`}
        isFetching={isFetching}
        emptyMessage={`No snapshots in ${monthLabel(month)}`}
      />
    </>
  );
}
