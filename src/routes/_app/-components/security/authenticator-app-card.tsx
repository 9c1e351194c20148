import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconDeviceMobile } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../../components/error-text';
import { secondFactorKeys, secondFactorQueries } from '../../../../queries/second-factor';
import { securityTexts } from './security-texts';
import { TotpEnrolment } from './totp-enrolment';
import { TurnOffTotpDialog } from './turn-off-totp-dialog';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });
/** Few enough recovery codes left to say so. */
const FEW_CODES = 3;

/**
 * Profile → Security: the signed-in user's authenticator app. Off: set it up (QR code, a first
 * code, then the recovery codes). On: when, how many recovery codes are left, and turning it off.
 */
export function AuthenticatorAppCard() {
  const status = useQuery(secondFactorQueries.status());
  const queryClient = useQueryClient();
  const [enrolling, setEnrolling] = useState(false);
  // Once the recovery codes show, only their Done closes the dialog.
  const [codesShown, setCodesShown] = useState(false);
  const [turningOff, setTurningOff] = useState(false);
  const enabledAt = status.data?.totpEnabledAt ?? null;
  const left = status.data?.recoveryCodesLeft ?? 0;

  // Whatever way the set-up ends, the card reads the app's state again (it may be on already).
  const endEnrolment = () => {
    setEnrolling(false);
    setCodesShown(false);
    void queryClient.invalidateQueries({ queryKey: secondFactorKeys.all });
  };

  return (
    <Paper
      withBorder
      radius="md"
      shadow="xs"
      p="lg"
      component="section"
      aria-labelledby="totp-title"
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="sm" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <IconDeviceMobile size={20} aria-hidden />
            <Title order={3} size="h4" id="totp-title">
              Authenticator app
            </Title>
          </Group>
          {status.data && (
            <Badge color={enabledAt ? 'teal' : 'gray'} variant="light">
              {enabledAt ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Sign in with a code from an app on your phone instead of a code sent by email.
        </Text>
        {status.isPending && <Loader size="sm" aria-label="Loading authenticator app" />}
        {status.isError && !status.data && (
          <Alert
            color="red"
            variant="light"
            title={securityTexts.statusError}
            icon={<IconAlertCircle aria-hidden />}
          >
            {errorMessage(status.error)}
          </Alert>
        )}
        {status.data && enabledAt && (
          <>
            <Text size="sm">Turned on {dateFormat.format(enabledAt)}.</Text>
            <Text size="sm" c={left <= FEW_CODES ? 'orange.8' : undefined}>
              {left === 1 ? '1 recovery code left' : `${left} recovery codes left`}
              {left <= FEW_CODES && '. Turn the app off and on again for ten new ones.'}
            </Text>
            {status.data.companyRequires && !status.data.passkey && (
              <Text size="sm" c="dimmed">
                Your company requires an authenticator app or a passkey, so the app stays on until
                you add a passkey.
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="light" color="red" onClick={() => setTurningOff(true)}>
                Turn off
              </Button>
            </Group>
          </>
        )}
        {status.data && !enabledAt && (
          <Group justify="flex-end">
            <Button onClick={() => setEnrolling(true)}>Set up authenticator app</Button>
          </Group>
        )}
      </Stack>

      <Modal
        opened={enrolling}
        onClose={endEnrolment}
        title="Set up authenticator app"
        centered
        closeOnClickOutside={false}
        closeOnEscape={!codesShown}
        withCloseButton={!codesShown}
      >
        {enrolling && (
          <TotpEnrolment onFinished={endEnrolment} onCodesShown={() => setCodesShown(true)} />
        )}
      </Modal>
      <TurnOffTotpDialog opened={turningOff} onClose={() => setTurningOff(false)} />
    </Paper>
  );
}
