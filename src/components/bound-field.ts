import { useStore } from '@tanstack/react-form';
import { useFieldContext } from './form';

/** The first message among a field's errors (strings or zod issues, possibly nested). */
export function fieldErrorText(errors: readonly unknown[]): string | undefined {
  for (const error of errors.flat(2)) {
    if (typeof error === 'string' && error) return error;
    if (
      error &&
      typeof error === 'object' &&
      'message' in error &&
      typeof error.message === 'string'
    )
      return error.message;
  }
  return undefined;
}

/** A choice field's binding inside `form.AppField`: the field, its value and its first error. */
export function useBoundField<T>() {
  const field = useFieldContext<T>();
  const value = useStore(field.store, (state) => state.value);
  const error = useStore(field.store, (state) => fieldErrorText(state.meta.errors));
  return { field, value, error };
}
