import { Button, Group, Stack } from '@mantine/core';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../../api/client';
import {
  API_TOKEN_NAME_MAX,
  createApiTokenBody,
  type ApiToken,
  type ApiTokenAccess,
} from '../../../../api/contract/api-tokens';
import { z } from '../../../../api/contract/zod';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { apiTokenMutations } from '../../../../queries/api-tokens';
import { DEFAULT_EXPIRY, expiresAtOf, expiryDayError, type ExpiryChoice } from './api-token-expiry';
import { AccessField, ExpiryDayField, ExpiryField, TeamsField } from './api-token-form-fields';
import { apiTokenErrorLeads } from './api-token-labels';

interface CreateTokenValues {
  name: string;
  expiresIn: ExpiryChoice;
  /** The chosen day (`yyyy-mm-dd`) when `expiresIn` is 'date'. */
  expiresOn: string;
  access: ApiTokenAccess;
  /** None: every team the user may see. */
  teamIds: number[];
}
type CreateTokenField = keyof CreateTokenValues;

const nameSchema = z.pick(createApiTokenBody, { name: true });

function createTokenErrors(values: CreateTokenValues, now: Date) {
  const fields: Partial<Record<CreateTokenField, string>> = {};
  const name = nameSchema.safeParse({ name: values.name });
  if (!name.success) fields.name = name.error.issues[0]?.message;
  if (values.expiresIn === 'date') {
    const dayError = expiryDayError(values.expiresOn, now);
    if (dayError) fields.expiresOn = dayError;
  }
  return Object.keys(fields).length ? fields : undefined;
}

/** The server names the wire's fields; the form shows each where it was typed. */
const formFieldOf = (field: string, values: CreateTokenValues): CreateTokenField | undefined => {
  if (field === 'expiresAt') return values.expiresIn === 'date' ? 'expiresOn' : 'expiresIn';
  // An item of the list is named by its index (`teamIds.0`).
  if (field.startsWith('teamIds')) return 'teamIds';
  return field === 'name' || field === 'access' ? field : undefined;
};

export interface CreatedApiToken {
  token: ApiToken;
  secret: string;
}

interface CreateApiTokenFormProps {
  onCreated: (created: CreatedApiToken) => void;
  onCancel: () => void;
}

/** Name, expiry and access of a new token of the signed-in user's. */
export function CreateApiTokenForm({ onCreated, onCancel }: CreateApiTokenFormProps) {
  const create = useMutation(apiTokenMutations.create());
  const form = useAppForm({
    defaultValues: {
      name: '',
      expiresIn: DEFAULT_EXPIRY,
      expiresOn: '',
      access: 'read',
      teamIds: [],
    } as CreateTokenValues,
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: ({ value }) => {
        const fields = createTokenErrors(value, new Date());
        return fields ? { fields } : undefined;
      },
    },
    onSubmit: async ({ value }) => {
      const expiresAt = expiresAtOf(value.expiresIn, value.expiresOn, new Date());
      if (!expiresAt) return;
      try {
        // Resolves once the list holds the new token (the invalidation is awaited).
        const created = await create.mutateAsync({
          name: value.name.trim(),
          expiresAt: expiresAt.toISOString(),
          access: value.access,
          ...(value.teamIds.length ? { teamIds: value.teamIds } : {}),
        });
        onCreated(created);
      } catch (error) {
        // Shown inline by FormError; a 400's fields also at their fields. The values stay.
        if (!(error instanceof ApiError)) return;
        for (const { field, message } of error.errors) {
          const target = formFieldOf(field, value);
          if (!target) continue;
          // Marked as the form's own, so the next validation (an edit) clears it.
          form.setFieldMeta(target, (prev) => ({
            ...prev,
            errorMap: { ...prev.errorMap, onServer: message },
            errorSourceMap: { ...prev.errorSourceMap, onServer: 'form' },
          }));
        }
      }
    },
  });
  const expiresIn = useStore(form.store, (state) => state.values.expiresIn);

  return (
    <form.AppForm>
      <form.Form aria-label="Create API token">
        <Stack gap="md">
          <form.AppField name="name">
            {(field) => (
              <field.TextField
                label="Name"
                description="What it is for, e.g. “CI deploys” or “billing sync”"
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                maxLength={API_TOKEN_NAME_MAX}
                autoComplete="off"
                required
                data-autofocus
              />
            )}
          </form.AppField>
          <form.AppField name="expiresIn">{() => <ExpiryField />}</form.AppField>
          {expiresIn === 'date' && (
            <form.AppField name="expiresOn">{() => <ExpiryDayField />}</form.AppField>
          )}
          <form.AppField name="access">{() => <AccessField />}</form.AppField>
          <form.AppField name="teamIds">{() => <TeamsField />}</form.AppField>
          <FormError title={apiTokenErrorLeads.create} error={create.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <form.SubmitButton fullWidth={false}>Create token</form.SubmitButton>
          </Group>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
