import {
  Button,
  Checkbox,
  PasswordInput,
  TextInput,
  type ButtonProps,
  type CheckboxProps,
  type PasswordInputProps,
  type TextInputProps,
} from '@mantine/core';
import { createFormHook, createFormHookContexts, useStore } from '@tanstack/react-form';
import { type ChangeEvent, type ComponentProps } from 'react';

/**
 * The one form toolkit of the console: TanStack Form bound to Mantine inputs. Forms validate with
 * a zod schema from the contract on submit, then again on every change once submitted
 * (`validationLogic: revalidateLogic()` with `validators.onDynamic`). The fields many forms draw
 * are registered here; a field only one screen draws (the one-time code, the support message)
 * lives with that screen and binds through `useFieldContext` inside `form.AppField`, so that its
 * Mantine component downloads with that screen only.
 */
export const { fieldContext, formContext, useFieldContext, useFormContext } =
  createFormHookContexts();

/** Errors arrive as strings or as Standard Schema issues (zod), possibly nested per validator. */
function firstErrorMessage(errors: readonly unknown[]): string | undefined {
  for (const error of errors.flat(2)) {
    if (typeof error === 'string' && error) return error;
    if (error && typeof error === 'object' && 'message' in error) {
      const { message } = error;
      if (typeof message === 'string' && message) return message;
    }
  }
  return undefined;
}

export function useFieldError() {
  const field = useFieldContext<unknown>();
  return useStore(field.store, (state) => firstErrorMessage(state.meta.errors));
}

export type BoundInputProps<P> = Omit<P, 'value' | 'onChange' | 'onBlur' | 'error' | 'name'> & {
  label: string;
};

/** What a Mantine text-like input needs from its field. */
export function useTextBinding() {
  const field = useFieldContext<string>();
  const value = useStore(field.store, (state) => state.value);
  const error = useFieldError();
  return {
    name: field.name,
    'data-field': field.name,
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      field.handleChange(event.currentTarget.value),
    onBlur: field.handleBlur,
    error,
    // `required` still reaches assistive technology; no asterisk, as these forms need every field.
    withAsterisk: false,
  };
}

function TextField(props: BoundInputProps<TextInputProps>) {
  const binding = useTextBinding();
  return <TextInput {...binding} {...props} />;
}

function PasswordField(props: BoundInputProps<PasswordInputProps>) {
  const binding = useTextBinding();
  return <PasswordInput {...binding} {...props} />;
}

function CheckboxField(props: BoundInputProps<CheckboxProps>) {
  const field = useFieldContext<boolean>();
  const checked = useStore(field.store, (state) => state.value);
  const error = useFieldError();
  return (
    <Checkbox
      {...props}
      name={field.name}
      data-field={field.name}
      checked={checked}
      onChange={(event) => field.handleChange(event.currentTarget.checked)}
      onBlur={field.handleBlur}
      error={error}
    />
  );
}

/** The form element: submits through TanStack Form and focuses the first invalid field. */
function Form({ children, ...props }: Omit<ComponentProps<'form'>, 'onSubmit' | 'noValidate'>) {
  const form = useFormContext();
  return (
    <form
      {...props}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        event.stopPropagation();
        const element = event.currentTarget;
        void form.handleSubmit().then(() => {
          if (!form.state.isValid) focusFirstInvalid(element, form.state.fieldMeta);
        });
      }}
    >
      {children}
    </form>
  );
}

function focusFirstInvalid(
  element: HTMLFormElement,
  fieldMeta: Record<string, { errors: readonly unknown[] } | undefined>,
) {
  const first = [...element.querySelectorAll<HTMLElement>('[data-field]')].find(
    (input) => firstErrorMessage(fieldMeta[input.dataset.field ?? '']?.errors ?? []) !== undefined,
  );
  first?.focus();
}

/** The form's submit button: shows a loader and refuses a second click while submitting. */
function SubmitButton({ children, disabled, ...props }: ButtonProps & { disabled?: boolean }) {
  const form = useFormContext();
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  return (
    <Button type="submit" fullWidth {...props} disabled={disabled} loading={isSubmitting}>
      {children}
    </Button>
  );
}

export const { useAppForm, withFieldGroup } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { TextField, PasswordField, CheckboxField },
  formComponents: { Form, SubmitButton },
});

interface ServerErrorMeta {
  errorMap: { onServer?: unknown };
  errorSourceMap: { onServer?: 'form' | 'field' };
}

/**
 * A field's meta with the server's message at it, as the field's own rather than the form's: the
 * form's next validation keeps it (`setFieldMeta(name, withServerError(message))`).
 */
export const withServerError =
  (message: string) =>
  <M extends ServerErrorMeta>(prev: M): M => ({
    ...prev,
    errorMap: { ...prev.errorMap, onServer: message },
    errorSourceMap: { ...prev.errorSourceMap, onServer: 'field' },
  });

/** A field's meta without the server's message: an edit of the field clears it. */
export const withoutServerError = <M extends ServerErrorMeta>(prev: M): M =>
  prev?.errorMap.onServer
    ? {
        ...prev,
        errorMap: { ...prev.errorMap, onServer: undefined },
        errorSourceMap: { ...prev.errorSourceMap, onServer: undefined },
      }
    : prev;
