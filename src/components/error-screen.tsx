import { Code, Container, Stack, Text, Title } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { reportError } from '../api/error-reporter';

/** The router's default error screen (spec section 2). */
export function ErrorScreen({ error }: ErrorComponentProps) {
  const err = error instanceof Error ? error : new Error(String(error));
  // The router caught it, so the browser never calls it uncaught: report it here.
  useEffect(() => reportError(error), [error]);
  return (
    <Container size="md" py="xl">
      <Stack>
        <Title order={2}>Unexpected Application Error!</Title>
        <Text fw={500}>{err.message}</Text>
        {err.stack && (
          <Code block style={{ whiteSpace: 'pre-wrap' }}>
            {err.stack}
          </Code>
        )}
      </Stack>
    </Container>
  );
}
