import { Alert, Box, Stack } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { messages } from '../../api/contract/validation';
import { ReturnToLogin } from '../../components/auth-card';

/** Shown instead of the form when the link lost its token or user id. */
export function MissingToken() {
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" icon={<IconLinkOff aria-hidden />}>
        {messages.missingResetToken}
      </Alert>
      <Box ta="center">
        <ReturnToLogin />
      </Box>
    </Stack>
  );
}
