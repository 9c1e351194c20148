import { Alert, Checkbox, Loader, MultiSelect, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SshKey } from '../../../../api/contract/ssh-keys';
import { AnchorLink } from '../../../../components/anchor-link';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { withLead } from '../../../../components/error-text';
import { authQueries } from '../../../../queries/auth';
import { sshKeyQueries } from '../../../../queries/ssh-keys';
import { keyTypeLabel, sshKeyErrorLeads } from '../ssh-keys/ssh-key-labels';

interface CreateVmSshKeysProps {
  sshKeyIds: number[];
  generateKeyPair: boolean;
  onKeysChange: (ids: number[]) => void;
  onGenerateChange: (on: boolean) => void;
  /** The local rule's message when neither is chosen, from the first submit on. */
  error?: string | null;
}

const optionOf = (key: SshKey) => ({
  value: key.id,
  label: `${key.name} (${keyTypeLabel(key)})`,
});

/**
 * How the user logs in over SSH: any of their account keys (Profile → SSH keys), and a generated
 * key pair whose private key the VM's page offers to download; at least one of the two.
 */
export function CreateVmSshKeys({
  sshKeyIds,
  generateKeyPair,
  onKeysChange,
  onGenerateChange,
  error,
}: CreateVmSshKeysProps) {
  const keys = useQuery(sshKeyQueries.list());
  const { data: auth } = useQuery(authQueries.check());
  const none = keys.data?.length === 0;
  const profileLink = auth && (
    <AnchorLink to="/user" search={{ id: auth.user.id }} size="sm">
      your Profile
    </AnchorLink>
  );

  return (
    <Stack gap="xs">
      <MultiSelect<number>
        {...DROPDOWN_DEFAULTS}
        label="SSH keys"
        description={
          none ? (
            <>You have no SSH keys yet: add your public key on {profileLink}.</>
          ) : (
            <>Your keys the VM accepts; manage them on {profileLink}.</>
          )
        }
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        placeholder={sshKeyIds.length ? undefined : none ? 'No SSH keys' : 'Choose keys'}
        name="sshKeyIds"
        data-field="sshKeyIds"
        data={(keys.data ?? []).map(optionOf)}
        value={sshKeyIds}
        onChange={onKeysChange}
        disabled={none}
        searchable
        clearable
        hidePickedOptions
        rightSection={
          keys.isFetching ? <Loader size="xs" aria-label="Loading SSH keys" /> : undefined
        }
        error={error}
      />
      {keys.error && !keys.data && (
        <Alert color="red" variant="light" role="alert">
          {withLead(sshKeyErrorLeads.fetch, keys.error)}
        </Alert>
      )}
      <Checkbox
        label="Generate a key pair as well"
        description={
          generateKeyPair
            ? 'Its private key can be downloaded from the VM’s page.'
            : 'Only the chosen keys can log in with SSH (besides the password).'
        }
        name="generateKeyPair"
        checked={generateKeyPair}
        onChange={(event) => onGenerateChange(event.currentTarget.checked)}
      />
      {!generateKeyPair && sshKeyIds.length === 0 && !error && (
        <Text size="xs" c="dimmed">
          Choose at least one SSH key.
        </Text>
      )}
    </Stack>
  );
}
