import { Input, PinInput } from '@mantine/core';
import { useStore } from '@tanstack/react-form';
import { useId, type Ref } from 'react';
import { useFieldContext, useFieldError } from '../../components/form';

/** A one-time code in separate digit slots; pasting the whole code fills every slot. */
export function CodeField({
  label,
  length,
  disabled,
  autoFocus,
  inputRef,
}: {
  label: string;
  length: number;
  disabled?: boolean;
  autoFocus?: boolean;
  /** The first slot, to put the cursor back after a rejected code. */
  inputRef?: Ref<HTMLInputElement>;
}) {
  const field = useFieldContext<string>();
  const value = useStore(field.store, (state) => state.value);
  const error = useFieldError();
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      labelProps={{ id: labelId }}
      error={error}
      errorProps={{ id: errorId }}
    >
      <PinInput
        ref={inputRef}
        mt={6}
        aria-labelledby={labelId}
        length={length}
        type="number"
        oneTimeCode
        autoFocus={autoFocus}
        disabled={disabled}
        size="lg"
        gap="xs"
        // The slots share the card's width like every other field.
        styles={{ pinInput: { flex: 1 }, input: { width: '100%' } }}
        value={value}
        onChange={field.handleChange}
        onBlur={field.handleBlur}
        error={!!error}
        getInputProps={(index) => ({
          'aria-label': `Digit ${index + 1} of ${length}`,
          'aria-describedby': error ? errorId : undefined,
          ...(index === 0 ? { 'data-field': field.name } : {}),
        })}
        hiddenInputProps={{ name: field.name }}
      />
    </Input.Wrapper>
  );
}
