import { Alert, Box, Stack } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { z } from 'zod';
import { messages } from '../../api/contract/validation';
import { ReturnToLogin } from '../../components/auth-card';

/** `?token=…&id=…` of the links in reset and activation e-mails; a bad value counts as missing. */
export const tokenSearch = z.object({
  token: z.string().min(1).optional().catch(undefined),
  id: z.number().int().positive().optional().catch(undefined),
});

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
