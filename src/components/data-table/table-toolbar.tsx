import { ActionIcon, Box, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './data-table.module.css';
import { SearchInput } from './search-input';
import { useLingering } from './use-lingering';

export const REFRESH_LINGER_MS = 300;

interface TableToolbarProps {
  title?: ReactNode;
  description?: ReactNode;
  search?: string;
  onSearchChange?: (search: string) => void;
  searchPlaceholder?: string;
  isFetching?: boolean;
  onRefresh?: () => void;
  extras?: ReactNode;
}

/** Title and description on the left; search, extra filters and Refresh on the right. */
export function TableToolbar({
  title,
  description,
  search = '',
  onSearchChange,
  searchPlaceholder,
  isFetching = false,
  onRefresh,
  extras,
}: TableToolbarProps) {
  const refreshing = useLingering(isFetching, REFRESH_LINGER_MS);
  if (!title && !description && !onSearchChange && !onRefresh && !extras) return null;
  return (
    <Group justify="space-between" align="center" gap="sm" p="md" wrap="wrap">
      <Stack gap={2}>
        {title && (
          <Title order={3} size="h4">
            {title}
          </Title>
        )}
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
      <Group
        gap="xs"
        wrap="nowrap"
        className={classes.controls}
        style={{ flexGrow: 1, justifyContent: 'flex-end' }}
      >
        {onSearchChange && (
          <Box className={classes.search}>
            <SearchInput value={search} onChange={onSearchChange} placeholder={searchPlaceholder} />
          </Box>
        )}
        {extras && <Box className={classes.extras}>{extras}</Box>}
        {onRefresh && (
          <Tooltip label="Refresh">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Refresh"
              disabled={refreshing}
              onClick={onRefresh}
            >
              <IconRefresh
                size={18}
                aria-hidden
                className={refreshing ? classes.spin : undefined}
                data-spinning={refreshing || undefined}
              />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    </Group>
  );
}
