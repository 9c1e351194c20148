import { Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One term and its value in a details card (a `<dl>` of the caller's). */
export function DetailField({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Box>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {term}
      </Text>
      <Box component="dd" m={0} mt={2} fz="sm" data-term={term}>
        {children}
      </Box>
    </Box>
  );
}
