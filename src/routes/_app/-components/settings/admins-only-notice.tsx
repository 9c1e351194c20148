import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** In place of what only Admins may see: said plainly, not as an error. */
export function AdminsOnlyNotice({ children }: { children: ReactNode }) {
  return (
    <Alert color="gray" variant="light" icon={<IconLock aria-hidden />}>
      {children}
    </Alert>
  );
}
