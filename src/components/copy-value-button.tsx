import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { notify } from './notify';

/** Spec section 9: the copy highlight lasts 1 s. */
export const COPY_HIGHLIGHT_MS = 1_000;

/**
 * A small copy button for a value shown beside it (an IP address, a username): a "Copied"
 * tooltip and check mark for a second, and the spec's "<label> copied to clipboard" toast.
 * It stops the click there, so a copy inside a clickable row does not open the row.
 */
export function CopyValueButton({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={COPY_HIGHLIGHT_MS}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow>
          <ActionIcon
            variant={copied ? 'light' : 'subtle'}
            color={copied ? 'teal' : 'gray'}
            size="sm"
            aria-label={`Copy ${label}`}
            data-copied={copied || undefined}
            onClick={(event) => {
              event.stopPropagation();
              copy();
              notify(`${label} copied to clipboard`);
            }}
          >
            {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
