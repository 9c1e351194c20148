import { ActionIcon, Alert, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ApiError } from '../../../../api/client';
import {
  LIMITS_PER_COMPANY_MAX,
  limitMessages,
  type LimitUse,
} from '../../../../api/contract/limits';
import { withLead } from '../../../../components/error-text';
import { useAppForm, withoutServerError, withServerError } from '../../../../components/form';
import { notify } from '../../../../components/notify';
import { customerMutations } from '../../../../queries/customers';
import { catalogQueries } from '../../../../queries/vms';
import {
  formFieldOf,
  limitsFormErrors,
  newLimitRow,
  regionOptionsOf,
  rowField,
  toEntries,
  toFormValues,
} from './limit-form-values';
import { MaxField, RegionField, ResourceField, RowError } from './limit-row-fields';
import { LimitsSaveError } from './limits-save-error';

interface CustomerLimitsFormProps {
  customerId: number;
  limits: readonly LimitUse[];
  onDone: () => void;
}

/**
 * The customer's whole set of limits, edited in place of the table: rows added and removed, then
 * saved at once (`PUT`, which replaces the set; no rows removes every limit). A failed save keeps
 * every row as typed; a 400's errors show at their rows.
 */
export function CustomerLimitsForm({ customerId, limits, onDone }: CustomerLimitsFormProps) {
  const save = useMutation(customerMutations.updateLimits(customerId));
  const regions = useQuery(catalogQueries.combinedRegions());
  const rowsRef = useRef<HTMLDivElement>(null);
  // Taken once: a refresh of the page while editing does not replace what is being typed.
  const [initialValues] = useState(() => toFormValues(limits));
  const [allPlaced, setAllPlaced] = useState(false);

  const form = useAppForm({
    defaultValues: initialValues,
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: ({ value }) => {
        const fields = limitsFormErrors(value);
        return fields ? { fields } : undefined;
      },
    },
    listeners: {
      // An edit clears the server's message at its field and on its row as a whole (a
      // duplicate), and no other: the other rows still say what to correct.
      onChange: ({ formApi, fieldApi }) => {
        const row = /^limits\[(\d+)\]\./.exec(fieldApi.name)?.[1];
        const names = row === undefined ? [] : [fieldApi.name, rowField(Number(row))];
        for (const name of names) {
          formApi.setFieldMeta(name as ReturnType<typeof rowField>, withoutServerError);
        }
      },
    },
    onSubmit: async ({ value }) => {
      let message: string;
      try {
        message = await save.mutateAsync(toEntries(value));
      } catch (error) {
        const placed = error instanceof ApiError ? error.errors : [];
        let unplaced = placed.length === 0;
        for (const { field, message } of placed) {
          const name = formFieldOf(field, value.limits.length);
          if (!name) {
            unplaced = true;
            continue;
          }
          // The field's own, not the form's: the next validation of the form keeps it (see the
          // listener above for what clears it).
          form.setFieldMeta(name, withServerError(message));
        }
        setAllPlaced(!unplaced);
        return;
      }
      notify(message || limitMessages.saved);
      onDone();
    },
  });

  const regionOptions = regionOptionsOf(regions.data, limits);

  const focusRow = (index: number) =>
    setTimeout(() =>
      rowsRef.current
        ?.querySelector<HTMLElement>(`[data-field="${rowField(index, 'resource')}"]`)
        ?.focus(),
    );

  return (
    <Paper component="section" aria-label="Limits" withBorder radius="md" shadow="xs" p="lg">
      <Stack gap={2} mb="md">
        <Title order={3} size="h4">
          Limits
        </Title>
        <Text size="sm" c="dimmed">
          What the company may hold, in one region or in all regions together
        </Text>
      </Stack>
      <form.AppForm>
        <form.Form aria-label="Edit limits">
          <Stack gap="md">
            {regions.error && (
              <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />}>
                {withLead('Error fetching regions', regions.error)}
              </Alert>
            )}
            <form.AppField name="limits" mode="array">
              {(rows) => (
                <Stack gap="sm" ref={rowsRef}>
                  {rows.state.value.length === 0 && (
                    <Text size="sm" c="dimmed">
                      No limits: saved like this, the company is bound only by your own limits and
                      the operator&apos;s quotas.
                    </Text>
                  )}
                  {rows.state.value.map((_, index) => (
                    <Paper
                      // Index keys, as TanStack Form's arrays expect: the values and errors move
                      // with the rows when one is removed.
                      key={index}
                      withBorder
                      radius="sm"
                      p="sm"
                      role="group"
                      aria-label={`Limit ${index + 1}`}
                    >
                      <Grid gap="sm" align="flex-start">
                        <Grid.Col span={{ base: 12, sm: 4 }}>
                          <form.AppField name={rowField(index, 'resource')}>
                            {() => <ResourceField />}
                          </form.AppField>
                        </Grid.Col>
                        <Grid.Col span={{ base: 12, sm: 4 }}>
                          <form.AppField name={rowField(index, 'region')}>
                            {() => (
                              <RegionField options={regionOptions} loading={regions.isPending} />
                            )}
                          </form.AppField>
                        </Grid.Col>
                        <Grid.Col span={{ base: 9, sm: 3 }}>
                          <form.AppField name={rowField(index, 'max')}>
                            {() => <MaxField />}
                          </form.AppField>
                        </Grid.Col>
                        <Grid.Col span={{ base: 3, sm: 1 }}>
                          <Group justify="flex-end" mt={25}>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              size="lg"
                              aria-label={`Remove limit ${index + 1}`}
                              onClick={() => {
                                // The other rows' messages move with them (a validation of the
                                // moved fields would drop the server's): the form's own rules
                                // are checked again instead.
                                void rows.removeValue(index, { dontValidate: true });
                                void form.validate('change');
                              }}
                            >
                              <IconTrash size={18} aria-hidden />
                            </ActionIcon>
                          </Group>
                        </Grid.Col>
                      </Grid>
                      <form.AppField name={rowField(index)}>{() => <RowError />}</form.AppField>
                    </Paper>
                  ))}
                  <Group>
                    <Button
                      variant="light"
                      leftSection={<IconPlus size={16} aria-hidden />}
                      disabled={rows.state.value.length >= LIMITS_PER_COMPANY_MAX}
                      onClick={() => {
                        const added = rows.state.value.length;
                        rows.pushValue(newLimitRow());
                        focusRow(added);
                      }}
                    >
                      Add limit
                    </Button>
                  </Group>
                </Stack>
              )}
            </form.AppField>

            <LimitsSaveError error={save.error} allPlaced={allPlaced} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onDone}>
                Cancel
              </Button>
              <form.SubmitButton fullWidth={false}>Save limits</form.SubmitButton>
            </Group>
          </Stack>
        </form.Form>
      </form.AppForm>
    </Paper>
  );
}
