import { Button } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { AddPasskeyDialog } from './add-passkey-dialog';

/** On the set-up screen a company's policy holds a user at: a passkey instead of the app. */
export function EnrolWithPasskey({ onAdded }: { onAdded: () => void }) {
  const [adding, setAdding] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconKey size={18} aria-hidden />}
        onClick={() => setAdding(true)}
      >
        Add a passkey or security key
      </Button>
      <AddPasskeyDialog opened={adding} onClose={() => setAdding(false)} onAdded={onAdded} />
    </>
  );
}
