import { Textarea, type TextareaProps } from '@mantine/core';
import { useTextBinding, type BoundInputProps } from './form';

/** A multi-line text field of the one form toolkit (drawn inside `form.AppField`). */
export function TextareaField(props: BoundInputProps<TextareaProps>) {
  const binding = useTextBinding();
  return <Textarea {...binding} {...props} />;
}
