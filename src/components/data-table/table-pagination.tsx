import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

interface TablePaginationProps {
  page: number;
  totalPages: number;
  canPrevious: boolean;
  canNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** "Page X of Y" with Previous and Next; the caller shows it only when there is more than one page. */
export function TablePagination({
  page,
  totalPages,
  canPrevious,
  canNext,
  onPrevious,
  onNext,
}: TablePaginationProps) {
  return (
    <Group justify="space-between" px="md" py="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        Page {page} of {totalPages}
      </Text>
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconChevronLeft size={14} aria-hidden />}
          disabled={!canPrevious}
          onClick={onPrevious}
        >
          Previous
        </Button>
        <Button
          variant="default"
          size="xs"
          rightSection={<IconChevronRight size={14} aria-hidden />}
          disabled={!canNext}
          onClick={onNext}
        >
          Next
        </Button>
      </Group>
    </Group>
  );
}
