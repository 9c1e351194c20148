import { List, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The building blocks of the FAQ's answers, so that every answer reads alike. */
export const P = ({ children }: { children: ReactNode }) => <Text size="sm">{children}</Text>;
export const Steps = ({ children }: { children: ReactNode }) => (
  <List type="ordered" size="sm" spacing={4}>
    {children}
  </List>
);
export const Points = ({ children }: { children: ReactNode }) => (
  <List size="sm" spacing={4}>
    {children}
  </List>
);
export const Answer = ({ children }: { children: ReactNode }) => <Stack gap="sm">{children}</Stack>;
export const B = ({ children }: { children: ReactNode }) => (
  <Text span fw={600} inherit>
    {children}
  </Text>
);
