import { useStore } from '@tanstack/react-form';
import { z } from '../api/contract/zod';
import { messages, newPasswordSchema } from '../api/contract/validation';
import { withFieldGroup } from './form';
import { PasswordChecklist } from './password-checklist';

/** New Password and Confirm Password follow the same rules (spec section 5). */
export const newPasswordShape = { password: newPasswordSchema, confirmPassword: newPasswordSchema };

/** Adds the confirmation rule; zod runs it once both passwords pass their own rules. */
export const withPasswordsMatch = <
  T extends z.ZodMiniType<{ password: string; confirmPassword: string }>,
>(
  schema: T,
) =>
  schema.check(
    z.refine((value) => value.password === value.confirmPassword, {
      error: messages.passwordMismatch,
      path: ['confirmPassword'],
    }),
  );

export const newPasswordFormSchema = withPasswordsMatch(z.object(newPasswordShape));

/** The two password inputs with the live checklist under them. */
export const NewPasswordFields = withFieldGroup({
  defaultValues: { password: '', confirmPassword: '' },
  render: function NewPasswordFieldsRender({ group }) {
    const password = useStore(group.store, (state) => state.values.password);
    const confirmPassword = useStore(group.store, (state) => state.values.confirmPassword);
    return (
      <>
        <group.AppField name="password">
          {(field) => (
            <field.PasswordField label="New Password" autoComplete="new-password" required />
          )}
        </group.AppField>
        <group.AppField name="confirmPassword">
          {(field) => (
            <field.PasswordField label="Confirm Password" autoComplete="new-password" required />
          )}
        </group.AppField>
        <PasswordChecklist password={password} confirmPassword={confirmPassword} />
      </>
    );
  },
});
