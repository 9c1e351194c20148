import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 200;

interface SearchInputProps {
  /** The committed search (the URL's). */
  value: string;
  /** Called once typing pauses for 200 ms. */
  onChange: (value: string) => void;
  placeholder?: string;
}

/** Shows what is typed at once and commits it after a pause. */
export function SearchInput({ value, onChange, placeholder = 'Search...' }: SearchInputProps) {
  const [draft, setDraft] = useState(value);
  const [committed, setCommitted] = useState(value);
  const [pending, setPending] = useState(false);
  // The URL moved on its own (Back, a link): show it, unless the user is mid-typing.
  if (value !== committed) {
    setCommitted(value);
    if (!pending) setDraft(value);
  }
  const commit = useDebouncedCallback((text: string) => {
    setPending(false);
    onChange(text);
  }, SEARCH_DEBOUNCE_MS);

  const clear = () => {
    commit.cancel();
    setPending(false);
    setDraft('');
    if (value !== '') onChange('');
  };

  return (
    <TextInput
      type="search"
      aria-label={placeholder}
      placeholder={placeholder}
      value={draft}
      onChange={(event) => {
        const text = event.currentTarget.value;
        setDraft(text);
        setPending(true);
        commit(text);
      }}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        draft ? <CloseButton size="sm" aria-label="Clear search" onClick={clear} /> : null
      }
      w={{ base: '100%', sm: 260 }}
    />
  );
}
