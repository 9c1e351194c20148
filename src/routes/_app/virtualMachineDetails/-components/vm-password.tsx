import { ActionIcon, CopyButton, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../../components/error-text';
import { notify } from '../../../../components/notify';
import { vmKeys, vmQueries } from '../../../../queries/vms';

const MASK = '••••••••••••';
/** Spec section 8: a copied value stays highlighted this long. */
export const COPY_HIGHLIGHT_MS = 1_000;

/**
 * The SSH password, masked. Showing it asks the server for it; hiding it forgets it (the query
 * is removed from the cache, so it lives in memory only while it is on screen).
 */
export function VmPassword({
  id,
  provisioning,
  canReveal,
}: {
  id: number;
  provisioning: boolean;
  canReveal: boolean;
}) {
  const queryClient = useQueryClient();
  const [shown, setShown] = useState(false);

  if (provisioning) return <Text size="sm">Provisioning</Text>;
  if (!canReveal)
    return (
      <Text size="sm" aria-label="Password hidden">
        {MASK}
      </Text>
    );

  const hide = () => {
    setShown(false);
    queryClient.removeQueries({ queryKey: vmKeys.password(id), exact: true });
  };

  return (
    <Group gap="xs" wrap="nowrap">
      {shown ? <RevealedPassword id={id} /> : <Text size="sm">{MASK}</Text>}
      <Tooltip label={shown ? 'Hide password' : 'Show password'}>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={shown ? 'Hide password' : 'Show password'}
          onClick={shown ? hide : () => setShown(true)}
        >
          {shown ? <IconEyeOff size={16} aria-hidden /> : <IconEye size={16} aria-hidden />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Mounted only while shown: its query exists only as long as the password is on screen. */
function RevealedPassword({ id }: { id: number }) {
  const password = useQuery(vmQueries.password(id));
  if (password.isPending) return <Loader size="xs" aria-label="Loading password" />;
  if (password.error)
    return (
      <Text size="sm" c="red" role="alert">
        {errorMessage(password.error)}
      </Text>
    );
  const { sshPassword } = password.data;
  return (
    <>
      <Text size="sm" ff="monospace" data-testid="vm-password">
        {sshPassword}
      </Text>
      <CopyButton value={sshPassword} timeout={COPY_HIGHLIGHT_MS}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy password'}>
            <ActionIcon
              variant={copied ? 'light' : 'subtle'}
              color={copied ? 'teal' : 'gray'}
              aria-label="Copy password"
              data-copied={copied || undefined}
              onClick={() => {
                copy();
                notify('Password copied to clipboard');
              }}
            >
              {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </>
  );
}
