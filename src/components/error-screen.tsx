import { Button, Code, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { reportError } from '../api/error-reporter';

/**
 * The router's default error screen (spec section 2), with two ways out: loading the page afresh
 * (what fixes a screen whose code changed under it with a new release) and the dashboard.
 */
export function ErrorScreen({ error }: ErrorComponentProps) {
  const err = error instanceof Error ? error : new Error(String(error));
  // The router caught it, so the browser never calls it uncaught: report it here.
  useEffect(() => reportError(error), [error]);
  return (
    <Container size="md" py="xl">
      <Stack>
        <Title order={2}>Unexpected Application Error!</Title>
        <Text fw={500}>{err.message}</Text>
        <Group gap="sm">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          {/* A navigation remounts the router's error boundary: the dashboard draws afresh. */}
          <Button component={Link} to="/" variant="default">
            Go to Dashboard
          </Button>
        </Group>
        {err.stack && (
          <Code block style={{ whiteSpace: 'pre-wrap' }}>
            {err.stack}
          </Code>
        )}
      </Stack>
    </Container>
  );
}
