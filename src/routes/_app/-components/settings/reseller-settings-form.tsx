import { Button, Divider, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../../../../api/client';
import {
  BRAND_NAME_MAX,
  DOMAINS_PER_RESELLER_MAX,
  resellerSettingsMessages,
  updateResellerSettingsBody,
  type ResellerSettings,
} from '../../../../api/contract/reseller-settings';
import { useAppForm, withoutServerError, withServerError } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { notify } from '../../../../components/notify';
import { resellerSettingsMutations } from '../../../../queries/reseller-settings';
import { ImageUrlField, PrimaryColorField } from './reseller-brand-fields';
import { DomainRowFields, DomainsError } from './reseller-domain-row';
import {
  domainField,
  formFieldOf,
  settingsFormErrors,
  toBody,
  toFormValues,
} from './reseller-settings-values';

export const SAVE_SETTINGS_ERROR = 'Error saving settings';

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Stack gap="sm" component="fieldset" m={0} p={0} bd="none">
      {/* A legend stands outside the fieldset's flex layout: its space below is its own. */}
      <Stack gap={2} component="legend" p={0} mb="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </Stack>
      {children}
    </Stack>
  );
}

/**
 * The reseller's settings, saved at once (`PUT` replaces them all). A failed save keeps every
 * value as typed; a 400's errors show at their fields (`domains.1` at the second domain). Staff
 * who are not Admins see the same values, read only.
 */
export function ResellerSettingsForm({
  settings,
  canEdit,
}: {
  settings: ResellerSettings;
  canEdit: boolean;
}) {
  const save = useMutation(resellerSettingsMutations.update());
  const domainsRef = useRef<HTMLDivElement>(null);
  // Taken once, then from each save's answer: a refresh while editing does not replace what is
  // being typed.
  const [initialValues, setInitialValues] = useState(() => toFormValues(settings));
  const [allPlaced, setAllPlaced] = useState(false);
  const readOnly = !canEdit;

  const form = useAppForm({
    defaultValues: initialValues,
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: ({ value }) => {
        const fields = settingsFormErrors(value);
        return fields ? { fields } : undefined;
      },
    },
    listeners: {
      // An edit clears the server's message at its field, and no other: the other fields still
      // say what to correct.
      onChange: ({ formApi, fieldApi }) => {
        formApi.setFieldMeta(fieldApi.name, withoutServerError);
      },
    },
    onSubmit: async ({ value, formApi }) => {
      let saved: Awaited<ReturnType<typeof save.mutateAsync>>;
      try {
        // Parsed, not only checked: trimmed, hosts in lower case, blanks as none.
        saved = await save.mutateAsync(updateResellerSettingsBody.parse(toBody(value)));
      } catch (error) {
        const placed = error instanceof ApiError ? error.errors : [];
        let unplaced = placed.length === 0;
        for (const { field, message } of placed) {
          const name = formFieldOf(field, value.domains.length);
          if (!name) {
            unplaced = true;
            continue;
          }
          // The field's own: the next validation of the form keeps it (the listener clears it).
          formApi.setFieldMeta(name as 'brandName', withServerError(message));
        }
        setAllPlaced(!unplaced);
        return;
      }
      notify(saved.message || resellerSettingsMessages.saved);
      // As the server keeps them: new domains are saved ones now, hosts in lower case. (The
      // form's defaults follow, or the next render would put the old ones back.)
      const next = toFormValues(saved.data);
      setInitialValues(next);
      formApi.reset(next);
    },
  });

  const focusNewDomain = (index: number) =>
    setTimeout(() =>
      domainsRef.current
        ?.querySelector<HTMLElement>(`[data-field="${domainField(index)}"]`)
        ?.focus(),
    );

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg" maw={760}>
      <form.AppForm>
        <form.Form aria-label="Reseller settings">
          <Stack gap="lg">
            <Section
              title="Brand"
              description="What your customers see in their console and on your domains' sign-in page"
            >
              <form.AppField name="brandName">
                {(field) => (
                  <field.TextField
                    label="Brand name"
                    description="The tab title and the name in place of Launchpad; empty for the product's own"
                    inputWrapperOrder={['label', 'input', 'description', 'error']}
                    maxLength={BRAND_NAME_MAX}
                    autoComplete="off"
                    readOnly={readOnly}
                  />
                )}
              </form.AppField>
              <form.AppField name="logoUrl">
                {() => (
                  <ImageUrlField
                    label="Logo URL"
                    description="The http(s) address of your logo, shown at the top of the sidebar"
                    previewHeight={36}
                    readOnly={readOnly}
                  />
                )}
              </form.AppField>
              <form.AppField name="tabLogoUrl">
                {() => (
                  <ImageUrlField
                    label="Tab logo URL"
                    description="The small icon in the browser's tab"
                    previewHeight={24}
                    readOnly={readOnly}
                  />
                )}
              </form.AppField>
              <form.AppField name="primaryColor">
                {() => <PrimaryColorField readOnly={readOnly} />}
              </form.AppField>
            </Section>

            <Divider />
            <Section
              title="Support"
              description="Where your customers' support messages go, and whom a suspended customer is told to write to"
            >
              <form.AppField name="supportEmail">
                {(field) => (
                  <field.TextField
                    label="Support email"
                    type="email"
                    autoComplete="off"
                    spellCheck={false}
                    required
                    readOnly={readOnly}
                  />
                )}
              </form.AppField>
            </Section>

            <Divider />
            <Section title="Order forms" description="Where Order Services sends your staff">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <form.AppField name="orderUrls.newCustomer">
                  {(field) => (
                    <field.TextField
                      label="New customer order form"
                      placeholder="https://example.com/order"
                      type="url"
                      inputMode="url"
                      autoComplete="off"
                      spellCheck={false}
                      readOnly={readOnly}
                    />
                  )}
                </form.AppField>
                <form.AppField name="orderUrls.accountChanges">
                  {(field) => (
                    <field.TextField
                      label="Account changes order form"
                      placeholder="https://example.com/changes"
                      type="url"
                      inputMode="url"
                      autoComplete="off"
                      spellCheck={false}
                      readOnly={readOnly}
                    />
                  )}
                </form.AppField>
              </SimpleGrid>
            </Section>

            <Divider />
            <Section
              title="Domains"
              description="Host names on which the console shows your brand before sign-in and builds the e-mailed links"
            >
              <form.AppField name="domains" mode="array">
                {(rows) => (
                  <Stack gap="sm" ref={domainsRef}>
                    {rows.state.value.length === 0 && (
                      <Text size="sm" c="dimmed">
                        No domains: your customers sign in at the product&apos;s own address.
                      </Text>
                    )}
                    {rows.state.value.map((row, index) => (
                      // Index keys, as TanStack Form's arrays expect: values and errors move with
                      // the rows when one is removed.
                      <form.AppField key={index} name={domainField(index)}>
                        {() => (
                          <DomainRowFields
                            index={index}
                            source={row.source}
                            verification={settings.domainVerification}
                            readOnly={readOnly}
                            onRemove={() => {
                              // The other rows' messages move with them; the form's own rules
                              // are checked again rather than each moved field.
                              void rows.removeValue(index, { dontValidate: true });
                              void form.validate('change');
                            }}
                          />
                        )}
                      </form.AppField>
                    ))}
                    <DomainsError />
                    {canEdit && (
                      <Group>
                        <Button
                          variant="light"
                          leftSection={<IconPlus size={16} aria-hidden />}
                          disabled={rows.state.value.length >= DOMAINS_PER_RESELLER_MAX}
                          onClick={() => {
                            const added = rows.state.value.length;
                            rows.pushValue({ host: '', source: 'new' });
                            focusNewDomain(added);
                          }}
                        >
                          Add domain
                        </Button>
                      </Group>
                    )}
                  </Stack>
                )}
              </form.AppField>
            </Section>

            {canEdit && (
              <>
                {allPlaced && save.error ? (
                  <FormError
                    title={SAVE_SETTINGS_ERROR}
                    error={new Error('Correct the fields marked above, then save again.')}
                  />
                ) : (
                  <FormError title={SAVE_SETTINGS_ERROR} error={save.error} />
                )}
                <Group justify="flex-end">
                  <form.SubmitButton fullWidth={false}>Save settings</form.SubmitButton>
                </Group>
              </>
            )}
          </Stack>
        </form.Form>
      </form.AppForm>
    </Paper>
  );
}
