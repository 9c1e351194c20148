import { List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { PASSWORD_CONFIRMED_LABEL, passwordChecks } from '../api/contract/validation';

/** The live checklist under a new password: each rule of the contract, then the confirmation. */
export function PasswordChecklist({
  password,
  confirmPassword,
}: {
  password: string;
  confirmPassword: string;
}) {
  const items = [
    ...passwordChecks.map((check) => ({ label: check.label, met: check.test(password) })),
    {
      label: PASSWORD_CONFIRMED_LABEL,
      met: confirmPassword.length > 0 && confirmPassword === password,
    },
  ];
  return (
    <List
      aria-label="Password requirements"
      spacing={6}
      size="sm"
      center
      listStyleType="none"
      styles={{ root: { paddingInlineStart: 0 } }}
    >
      {items.map(({ label, met }) => (
        <List.Item
          key={label}
          icon={
            <ThemeIcon color={met ? 'teal' : 'gray'} variant="light" size={20} radius="xl">
              {met ? <IconCheck size={13} aria-hidden /> : <IconX size={13} aria-hidden />}
            </ThemeIcon>
          }
        >
          <Text component="span" size="sm" c={met ? 'teal.8' : 'dimmed'}>
            {label}
          </Text>
          <VisuallyHidden>{met ? ': met' : ': not met'}</VisuallyHidden>
        </List.Item>
      ))}
    </List>
  );
}
