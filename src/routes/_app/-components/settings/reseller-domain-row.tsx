import { ActionIcon, Badge, Code, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useStore } from '@tanstack/react-form';
import { isHostName, type ResellerSettings } from '../../../../api/contract/reseller-settings';
import { CopyValueButton } from '../../../../components/copy-value-button';
import { fieldErrorText } from '../../../../components/bound-field';
import { useFieldContext, useTextBinding } from '../../../../components/form';
import type { DomainRow } from './reseller-settings-values';

type Verification = ResellerSettings['domainVerification'];

/** The DNS record that proves a new domain is the reseller's: its name and value, each to copy. */
function TxtRecord({ host, verification }: { host: string; verification: Verification }) {
  const name = `${verification.recordPrefix}.${host}`;
  return (
    <Stack gap={4} mt="xs">
      <Text size="xs" c="dimmed">
        Before saving, create this DNS record at your domain&apos;s DNS provider:
      </Text>
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Text size="xs" fw={600} w={44} style={{ flexShrink: 0 }}>
          Name
        </Text>
        <Code style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{name}</Code>
        <CopyValueButton value={name} label="TXT record name" />
      </Group>
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Text size="xs" fw={600} w={44} style={{ flexShrink: 0 }}>
          Type
        </Text>
        <Code>TXT</Code>
      </Group>
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Text size="xs" fw={600} w={44} style={{ flexShrink: 0 }}>
          Value
        </Text>
        <Code style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{verification.value}</Code>
        <CopyValueButton value={verification.value} label="TXT record value" />
      </Group>
    </Stack>
  );
}

const sourceLabels: Record<DomainRow['source'], string | undefined> = {
  import: 'Set by your provider',
  settings: 'Verified',
  new: undefined,
};

/**
 * One domain, inside its host's `form.AppField`: a saved one as text (with where it came from),
 * a new one as a box to type in, with the TXT record it needs once it reads as a host name.
 */
export function DomainRowFields({
  index,
  source,
  verification,
  readOnly,
  onRemove,
}: {
  index: number;
  source: DomainRow['source'];
  verification: Verification;
  readOnly: boolean;
  onRemove: () => void;
}) {
  const binding = useTextBinding();
  const host = binding.value.trim().toLowerCase();
  const label = `Domain ${index + 1}`;
  const badge = sourceLabels[source];
  return (
    <Paper withBorder radius="sm" p="sm" role="group" aria-label={label}>
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          {source === 'new' ? (
            <TextInput
              {...binding}
              aria-label={label}
              placeholder="console.example.com"
              autoComplete="off"
              spellCheck={false}
              readOnly={readOnly}
            />
          ) : (
            <>
              <Group gap="xs" wrap="wrap" mih={36} data-field={binding['data-field']} tabIndex={-1}>
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {binding.value}
                </Text>
                {badge && (
                  <Badge
                    color={source === 'import' ? 'gray' : 'green'}
                    variant="light"
                    radius="sm"
                    tt="none"
                  >
                    {badge}
                  </Badge>
                )}
              </Group>
              {binding.error && (
                <Text size="sm" c="red.8" role="alert">
                  {binding.error}
                </Text>
              )}
            </>
          )}
        </Stack>
        {!readOnly && (
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={`Remove ${binding.value.trim() || label}`}
            onClick={onRemove}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        )}
      </Group>
      {source === 'new' && !readOnly && isHostName(host) && (
        <TxtRecord host={host} verification={verification} />
      )}
    </Paper>
  );
}

/** A problem with the list as a whole (too many domains). */
export function DomainsError() {
  const field = useFieldContext<unknown>();
  const error = useStore(field.store, (state) => fieldErrorText(state.meta.errors));
  if (!error) return null;
  return (
    <Text size="sm" c="red.8" role="alert">
      {error}
    </Text>
  );
}
