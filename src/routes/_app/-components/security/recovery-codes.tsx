import { Alert, Button, Checkbox, Code, CopyButton, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { COPY_HIGHLIGHT_MS } from '../../../../components/copy-value-button';
import { downloadTextFile } from '../../../../components/download-file';
import { notify } from '../../../../components/notify';

export const RECOVERY_CODES_FILE = 'recovery-codes.txt';

/**
 * The app's ten recovery codes, shown this once (the server keeps only their hashes): copy them,
 * download them, and say they are saved before going on.
 */
export function RecoveryCodes({
  codes,
  issuer,
  onDone,
  doneLabel = 'Done',
}: {
  codes: string[];
  /** Whose codes they are, written at the top of the downloaded file. */
  issuer: string;
  onDone: () => void;
  doneLabel?: string;
}) {
  const [saved, setSaved] = useState(false);
  const text = codes.join('\n');
  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle aria-hidden />}
        title="Save your recovery codes"
      >
        If you lose your phone, each of these codes signs you in once instead of the app. They will
        not be shown again: keep them somewhere safe, such as a password manager.
      </Alert>
      <SimpleGrid cols={2} spacing="xs" verticalSpacing={6} role="list" aria-label="Recovery codes">
        {codes.map((code) => (
          <Code key={code} role="listitem" fz="md" ta="center" py={6} style={{ userSelect: 'all' }}>
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="xs" grow>
        <CopyButton value={text} timeout={COPY_HIGHLIGHT_MS}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              leftSection={
                copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
              }
              onClick={() => {
                copy();
                notify('Recovery codes copied to clipboard');
              }}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() =>
            downloadTextFile(
              RECOVERY_CODES_FILE,
              `${issuer} recovery codes\nEach code works once.\n\n${text}\n`,
              'text/plain',
            )
          }
        >
          Download
        </Button>
      </Group>
      <Checkbox
        label="I have saved my recovery codes"
        checked={saved}
        onChange={(event) => setSaved(event.currentTarget.checked)}
      />
      <Button onClick={onDone} disabled={!saved}>
        {doneLabel}
      </Button>
    </Stack>
  );
}
