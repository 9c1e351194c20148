import { Box, Button, Center, CloseButton, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../api/client';
import { vmErrorLeads, withLead } from '../../../components/error-text';
import { vmQueries } from '../../../queries/vms';

export const consoleMessages = {
  loading: 'Loading console...',
  failed: 'Failed to load console. Please try again.',
} as const;

/**
 * The console address is shown in a frame only when it is a usable web address: a blank one, or
 * one with another scheme (`javascript:` would run in the console's own page), is refused.
 */
export function usableConsoleUrl(consoleUrl: unknown): string | null {
  if (typeof consoleUrl !== 'string' || consoleUrl.trim() === '') return null;
  try {
    const url = new URL(consoleUrl.trim(), window.location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

const closeWindow = () => window.close();

/** The VM's console in a full-window frame, with a close button. */
export function VmConsoleScreen({ id }: { id: number }) {
  // Not a VM id: there is nothing to show in this tab.
  useEffect(() => {
    if (!id) closeWindow();
  }, [id]);
  if (!id) return null;
  return <ConsoleFrame id={id} />;
}

function ConsoleFrame({ id }: { id: number }) {
  const consoleQuery = useQuery(vmQueries.console(id));
  const [loaded, setLoaded] = useState(false);
  const url = consoleQuery.data ? usableConsoleUrl(consoleQuery.data.consoleUrl) : null;

  let failure: string | null = null;
  // A 200 whose consoleUrl is not a string fails the contract: an answer, but no usable address.
  const unusableAnswer =
    consoleQuery.error instanceof ApiError && consoleQuery.error.status === 200;
  if (unusableAnswer || (consoleQuery.data && !url)) failure = vmErrorLeads.invalidConsoleUrl;
  else if (consoleQuery.error) failure = withLead(vmErrorLeads.fetchConsole, consoleQuery.error);

  return (
    <Box pos="fixed" inset={0} bg="black">
      {url && (
        <iframe
          src={url}
          title="Virtual machine console"
          onLoad={(event) => {
            setLoaded(true);
            // The guest's screen takes the keyboard at once, without a click into the frame.
            event.currentTarget.focus();
          }}
          style={{ border: 0, width: '100%', height: '100%', display: 'block' }}
        />
      )}
      {failure ? (
        <Center pos="absolute" inset={0} bg="dark.8">
          <Stack align="center" gap="sm" role="alert">
            <Text c="white" fw={600}>
              {consoleMessages.failed}
            </Text>
            <Text c="gray.4" size="sm">
              {failure}
            </Text>
            <Button variant="white" onClick={closeWindow}>
              Close
            </Button>
          </Stack>
        </Center>
      ) : (
        !loaded && (
          <Center pos="absolute" inset={0} bg="dark.8">
            <Stack align="center" gap="sm">
              <Loader color="white" aria-hidden />
              <Text c="white">{consoleMessages.loading}</Text>
            </Stack>
          </Center>
        )
      )}
      <CloseButton
        pos="absolute"
        top={12}
        right={12}
        size="lg"
        variant="filled"
        aria-label="Close console"
        onClick={closeWindow}
        style={{ zIndex: 2 }}
      />
    </Box>
  );
}
