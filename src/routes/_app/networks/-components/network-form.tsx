import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../../api/client';
import {
  createNetworkBody,
  DEFAULT_DNS_SERVERS,
  networkMessages,
  updateNetworkBody,
} from '../../../../api/contract/networks';
import { errorMessage } from '../../../../components/error-text';
import { useAppForm } from '../../../../components/form';
import { notify } from '../../../../components/notify';
import { networkMutations } from '../../../../queries/networks';
import { CidrHelper } from './cidr-helper';
import { CidrField, DescriptionField, RegionField } from './network-form-fields';
import {
  createBodyOf,
  missesRequired,
  networkFormErrors,
  updateBodyOf,
  type NetworkFormField,
  type NetworkFormValues,
} from './network-form-values';
import { NetworkTypeCards } from './network-type-cards';

interface NetworkFormProps {
  /** Absent: a new network. Present: the network being edited (region and type are fixed). */
  editing?: { id: number; region: string };
  initialValues: NetworkFormValues;
  /** Called with the network's id once it is saved. */
  onSaved: (id: number) => void;
  onCancel: () => void;
}

/** The one network form (spec section 2 and 5), for Create Network and Edit. */
export function NetworkForm({ editing, initialValues, onSaved, onCancel }: NetworkFormProps) {
  const mode = editing ? 'edit' : 'create';
  const create = useMutation(networkMutations.create());
  const update = useMutation(networkMutations.update());
  const failure = editing ? update.error : create.error;

  const form = useAppForm({
    defaultValues: initialValues,
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: ({ value }) => {
        const fields = networkFormErrors(value, mode);
        return fields ? { fields } : undefined;
      },
    },
    onSubmit: async ({ value }) => {
      try {
        if (editing) {
          // Sent as the contract reads it: trimmed, blanks as null.
          await update.mutateAsync({
            id: editing.id,
            ...updateNetworkBody.parse(updateBodyOf(value)),
          });
          notify(networkMessages.updated);
          onSaved(editing.id);
        } else {
          const { data } = await create.mutateAsync(createNetworkBody.parse(createBodyOf(value)));
          notify(networkMessages.created);
          onSaved(data.id);
        }
      } catch (error) {
        // A 400 names its fields: show each message at its field. The values stay as typed.
        if (error instanceof ApiError) {
          for (const { field, message } of error.errors) {
            if (field in value) {
              // Marked as the form's own, so the next validation (an edit) clears it.
              form.setFieldMeta(field as NetworkFormField, (prev) => ({
                ...prev,
                errorMap: { ...prev.errorMap, onServer: message },
                errorSourceMap: { ...prev.errorSourceMap, onServer: 'form' },
              }));
            }
          }
        }
      }
    },
  });
  const fillRequired = useStore(
    form.store,
    (state) => state.submissionAttempts > 0 && missesRequired(state.values, mode),
  );

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg" maw={760}>
      <form.AppForm>
        <form.Form aria-label={editing ? 'Edit network' : 'Create network'}>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <form.AppField name="name">
                {(field) => (
                  <field.TextField label="Network Name" required autoComplete="off" autoFocus />
                )}
              </form.AppField>
              <form.AppField name="regionId">
                {() => <RegionField lockedRegion={editing?.region} />}
              </form.AppField>
            </SimpleGrid>
            <form.AppField name="description">{() => <DescriptionField />}</form.AppField>
            <form.AppField name="networkType">
              {() => <NetworkTypeCards locked={!!editing} />}
            </form.AppField>

            <Title order={3} size="h5" mt="xs">
              Addressing
            </Title>
            <form.AppField name="cidrBlock">{() => <CidrField />}</form.AppField>
            <form.Subscribe
              selector={(state) => ({
                cidr: state.values.cidrBlock,
                regionId: state.values.regionId,
                standard: state.values.networkType === 'standard',
              })}
            >
              {({ cidr, regionId, standard }) => (
                <>
                  <CidrHelper
                    cidr={cidr}
                    regionId={regionId}
                    networkId={editing?.id}
                    onFill={
                      standard
                        ? (details) => {
                            form.setFieldValue('defaultRoute', details.gatewayIp);
                            form.setFieldValue('dhcpStartAddress', details.dhcpStartAddress);
                            form.setFieldValue('dhcpEndAddress', details.dhcpEndAddress);
                          }
                        : undefined
                    }
                  />
                  {standard ? (
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>
                      <form.AppField name="dhcpStartAddress">
                        {(field) => (
                          <field.TextField
                            label="DHCP Start"
                            placeholder="e.g. 10.0.0.2"
                            required
                          />
                        )}
                      </form.AppField>
                      <form.AppField name="dhcpEndAddress">
                        {(field) => (
                          <field.TextField
                            label="DHCP End"
                            placeholder="e.g. 10.0.0.254"
                            required
                          />
                        )}
                      </form.AppField>
                      <form.AppField name="defaultRoute">
                        {(field) => (
                          <field.TextField
                            label="Default Route"
                            placeholder="e.g. 10.0.0.1"
                            description="The gateway the VMs send outside traffic to"
                            inputWrapperOrder={['label', 'input', 'description', 'error']}
                            required
                          />
                        )}
                      </form.AppField>
                      <form.AppField name="dnsServers">
                        {(field) => (
                          <field.TextField
                            label="DNS Servers"
                            placeholder={DEFAULT_DNS_SERVERS}
                            description="One or two IP addresses separated by a comma"
                            inputWrapperOrder={['label', 'input', 'description', 'error']}
                            required
                          />
                        )}
                      </form.AppField>
                    </SimpleGrid>
                  ) : (
                    <Text size="sm" c="dimmed">
                      A custom network is layer 2 only: no DHCP, no SNAT and no default route.
                    </Text>
                  )}
                </>
              )}
            </form.Subscribe>

            {fillRequired && (
              <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />}>
                {networkMessages.fillRequired}
              </Alert>
            )}
            {failure && (
              <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />}>
                {errorMessage(failure)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
              <form.SubmitButton fullWidth={false}>
                {editing ? 'Save Changes' : 'Create Network'}
              </form.SubmitButton>
            </Group>
          </Stack>
        </form.Form>
      </form.AppForm>
    </Paper>
  );
}
