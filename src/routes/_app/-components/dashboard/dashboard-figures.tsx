import {
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  type PaperProps,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconClock,
  IconNetwork,
  IconPlayerPlay,
  IconPlayerStop,
  IconRefresh,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createLink, linkOptions, type LinkOptions } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';
import type { DashboardSummary } from '../../../../api/contract/dashboard';
import { errorMessage } from '../../../../components/error-text';
import { dashboardQueries } from '../../../../queries/dashboard';
import classes from './dashboard-figures.module.css';

type FigureAnchorProps = PaperProps &
  Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof PaperProps> & {
    ref?: Ref<HTMLAnchorElement>;
  };

function FigureAnchor({ className, ...props }: FigureAnchorProps) {
  // The router adds `active` to a link to the current page (the VM-hours' Dashboard): kept beside
  // the card's own class, not in place of it.
  return (
    <Paper
      component="a"
      withBorder
      radius="md"
      className={className ? `${classes.figure} ${className}` : classes.figure}
      {...props}
    />
  );
}

/** A figure's card: the whole card is the link into the list it counts. */
const FigureLink = createLink(FigureAnchor);

interface Figure {
  label: string;
  value: (summary: DashboardSummary) => number;
  icon: Icon;
  color: string;
  link: LinkOptions;
  /** Hours come in tenths; counts are whole. */
  fractionDigits?: number;
}

/** Each figure and where it leads: the VM list filtered as the server counted (`vmStatusGroups`). */
const figures: Figure[] = [
  {
    label: 'VMs running',
    value: (s) => s.vms.running,
    icon: IconPlayerPlay,
    color: 'green',
    link: linkOptions({ to: '/virtualMachines', search: { status: 'running' } }),
  },
  {
    label: 'VMs stopped',
    value: (s) => s.vms.stopped,
    icon: IconPlayerStop,
    color: 'red',
    link: linkOptions({ to: '/virtualMachines', search: { status: 'stopped' } }),
  },
  {
    label: 'VMs in error',
    value: (s) => s.vms.error,
    icon: IconAlertTriangle,
    color: 'orange',
    link: linkOptions({ to: '/virtualMachines', search: { status: 'error' } }),
  },
  {
    label: 'Networks',
    value: (s) => s.networks,
    icon: IconNetwork,
    color: 'indigo',
    link: linkOptions({ to: '/networks' }),
  },
  {
    // The addresses are the VMs': the list of the VMs holding one shows each VM's address.
    label: 'Public IPs in use',
    value: (s) => s.publicIps,
    icon: IconWorld,
    color: 'cyan',
    link: linkOptions({ to: '/virtualMachines', search: { publicIp: true } }),
  },
  {
    // This month's usage by size is the VM Usage tab.
    label: 'VM-hours this month',
    value: (s) => s.vmHours,
    icon: IconClock,
    color: 'gray',
    link: linkOptions({ to: '/', search: { tab: 'usage' } }),
    fractionDigits: 1,
  },
];

/** Six across on a wide screen, three on a narrow one, two on a phone. */
const columns = { base: 2, '480px': 3, '860px': 6 };

/**
 * The row of figures above the Dashboard's tabs: what runs, what is stopped or failed, the
 * networks, the public IPs and this month's VM-hours, each a link into the filtered list. The live
 * events keep them current (`src/live/apply-event.ts`).
 */
export function DashboardFigures() {
  const summary = useQuery(dashboardQueries.summary());
  if (summary.isPending)
    return (
      <SimpleGrid
        type="container"
        cols={columns}
        spacing="sm"
        mb="lg"
        aria-busy="true"
        aria-label="Loading the figures"
      >
        {figures.map((figure) => (
          <Skeleton key={figure.label} height={88} radius="md" />
        ))}
      </SimpleGrid>
    );
  // A failed refresh of figures already shown is toasted by the query cache; keep the figures.
  if (!summary.data)
    return (
      <Alert
        color="red"
        variant="light"
        title="Error fetching the dashboard figures"
        icon={<IconAlertTriangle size={18} aria-hidden />}
        mb="lg"
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(summary.error)}</Text>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} aria-hidden />}
            loading={summary.isFetching}
            onClick={() => void summary.refetch()}
          >
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  const data = summary.data;
  return (
    <section aria-label="Overview">
      <SimpleGrid type="container" cols={columns} spacing="sm" mb="lg">
        {figures.map(({ label, value, icon: FigureIcon, color, link, fractionDigits }) => (
          <FigureLink key={label} {...link}>
            <Group justify="space-between" align="center" wrap="nowrap" gap="xs">
              <Text className={classes.value}>
                {value(data).toLocaleString('en-US', {
                  maximumFractionDigits: fractionDigits ?? 0,
                })}
              </Text>
              <ThemeIcon variant="light" color={color} size={30} radius="md" aria-hidden>
                <FigureIcon size={17} />
              </ThemeIcon>
            </Group>
            <Text size="sm" c="dimmed" lh={1.3} mt={6}>
              {label}
            </Text>
          </FigureLink>
        ))}
      </SimpleGrid>
    </section>
  );
}
