import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconMessageCircle, IconSend } from '@tabler/icons-react';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import {
  SUPPORT_MESSAGE_MAX,
  sendSupportMessageBody,
  supportMessages,
} from '../../../../api/contract/support';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { supportMutations } from '../../../../queries/support';
import { TextareaField } from '../../../../components/textarea-field';

const SEND_ERROR_LEAD = 'Error sending message';

/**
 * 'Still have questions?': Get In Touch reveals the message form. Once sent, the button reads
 * 'Message sent!' and stays disabled until the text changes; a failure keeps the text.
 */
export function SupportContact({ email }: { email: string }) {
  const [writing, setWriting] = useState(false);
  const [sent, setSent] = useState(false);
  const send = useMutation(supportMutations.send());
  const form = useAppForm({
    defaultValues: { message: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: sendSupportMessageBody },
    onSubmit: async ({ value }) => {
      try {
        await send.mutateAsync(sendSupportMessageBody.parse(value));
      } catch {
        return; // shown inline by FormError; the text stays as typed
      }
      setSent(true);
    },
  });
  const length = useStore(form.store, (state) => state.values.message.length);

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Stack gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size={44} radius="md" variant="light">
            <IconMessageCircle size={24} aria-hidden />
          </ThemeIcon>
          <Stack gap={2}>
            <Title order={3} size="h4">
              Still have questions?
            </Title>
            <Text size="sm" c="dimmed">
              Can&apos;t find the answer you&apos;re looking for? Our support team will answer by
              e-mail at {email}.
            </Text>
          </Stack>
        </Group>
        {!writing ? (
          <Group>
            <Button onClick={() => setWriting(true)}>Get In Touch</Button>
          </Group>
        ) : (
          <form.AppForm>
            <form.Form aria-label="Message to support">
              <Stack gap="sm">
                <form.AppField name="message" listeners={{ onChange: () => setSent(false) }}>
                  {() => (
                    <TextareaField
                      // Shown on request: the cursor goes where the user is about to type.
                      autoFocus
                      label="Your message"
                      placeholder="Please describe your issue for our support team"
                      autosize
                      minRows={5}
                      maxRows={14}
                      maxLength={SUPPORT_MESSAGE_MAX}
                      description={`${length} / ${SUPPORT_MESSAGE_MAX} characters`}
                    />
                  )}
                </form.AppField>
                <FormError title={SEND_ERROR_LEAD} error={send.error} />
                {sent && (
                  <Text size="sm" c="green.8" role="status">
                    {supportMessages.sent}. We will answer by e-mail.
                  </Text>
                )}
                <Group justify="flex-end">
                  <form.SubmitButton
                    fullWidth={false}
                    disabled={sent}
                    leftSection={
                      sent ? (
                        <IconCheck size={16} aria-hidden />
                      ) : (
                        <IconSend size={16} aria-hidden />
                      )
                    }
                  >
                    {sent ? 'Message sent!' : 'Send Message'}
                  </form.SubmitButton>
                </Group>
              </Stack>
            </form.Form>
          </form.AppForm>
        )}
      </Stack>
    </Paper>
  );
}
