import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage, fieldErrorMessages } from './error-text';

/**
 * A failed submit, inline in the form (never a toast): the spec's lead as the title and the
 * server's message as the body.
 */
export function FormError({
  title,
  error,
  children,
}: {
  title: string;
  error: unknown;
  children?: ReactNode;
}) {
  if (!error) return null;
  const details = fieldErrorMessages(error);
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle aria-hidden />}>
      {errorMessage(error)}
      {details.length > 0 && (
        <List size="sm" mt={4}>
          {details.map((message) => (
            <List.Item key={message}>{message}</List.Item>
          ))}
        </List>
      )}
      {children}
    </Alert>
  );
}
