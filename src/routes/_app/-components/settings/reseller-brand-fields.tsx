import { Box, Button, ColorInput, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import {
  HEX_COLOR,
  MIN_CONTRAST,
  brandColorMessages,
  brandContrast,
} from '../../../../api/contract/brand-color';
import { useTextBinding } from '../../../../components/form';
import { useBoundField } from '../../../../components/bound-field';

const isHttpUrl = (value: string) =>
  URL.canParse(value.trim()) && /^https?:$/.test(new URL(value.trim()).protocol);

/** What the image at `url` looks like, or why there is none to show. */
function ImagePreview({ url, height, label }: { url: string; height: number; label: string }) {
  // Remembered per address, so that a corrected one gets its own chance.
  const [failed, setFailed] = useState<string | null>(null);
  if (!isHttpUrl(url)) return null;
  return (
    <Group gap="sm" wrap="nowrap" mt={6} data-preview={label}>
      <Text size="xs" c="dimmed">
        Preview
      </Text>
      {failed === url ? (
        <Text size="xs" c="red.8">
          The image could not be loaded from this address
        </Text>
      ) : (
        <Box
          p={6}
          bd="1px solid var(--mantine-color-default-border)"
          style={{ borderRadius: 'var(--mantine-radius-sm)' }}
        >
          <Image
            src={url.trim()}
            alt={label}
            h={height}
            w="auto"
            maw="100%"
            fit="contain"
            onError={() => setFailed(url)}
          />
        </Box>
      )}
    </Group>
  );
}

/** An image's http(s) address with a preview of what it shows (the logo, the tab's icon). */
export function ImageUrlField({
  label,
  description,
  previewHeight,
  readOnly,
}: {
  label: string;
  description: string;
  previewHeight: number;
  readOnly: boolean;
}) {
  const binding = useTextBinding();
  return (
    <Stack gap={0}>
      <TextInput
        {...binding}
        label={label}
        description={description}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        placeholder="https://example.com/logo.svg"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        readOnly={readOnly}
      />
      <ImagePreview url={binding.value} height={previewHeight} label={`${label} preview`} />
    </Stack>
  );
}

/**
 * The primary colour: its contrast as it is typed or picked ("Contrast 5.6:1 with white"), the
 * contract's message at once when it is too low, and a filled button drawn in it.
 */
export function PrimaryColorField({ readOnly }: { readOnly: boolean }) {
  const { field, value, error } = useBoundField<string>();
  const color = value.trim();
  const valid = HEX_COLOR.test(color);
  const contrast = valid ? brandContrast(color) : undefined;
  const tooLow = contrast !== undefined && contrast < MIN_CONTRAST;
  return (
    <Stack gap="xs">
      <ColorInput
        label="Primary color"
        name={field.name}
        data-field={field.name}
        value={value}
        onChange={field.handleChange}
        onBlur={field.handleBlur}
        format="hex"
        placeholder="#1f4fbf"
        description={
          contrast === undefined
            ? "Buttons and links in your customers' consoles; empty for the product's own"
            : `Contrast ${contrast}:1 with white`
        }
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        // Checked while it is chosen, not only once saved: the picker moves through many.
        error={error ?? (tooLow ? brandColorMessages.contrast(contrast) : undefined)}
        readOnly={readOnly}
        withPicker={!readOnly}
        withEyeDropper={false}
        autoComplete="off"
        spellCheck={false}
      />
      {valid && (
        <Group gap="sm" data-preview="Primary color preview">
          <Text size="xs" c="dimmed">
            Preview
          </Text>
          {/* Drawn as the console draws a filled button; not one to press. */}
          <Button component="span" size="xs" color={color} style={{ pointerEvents: 'none' }}>
            Create VM
          </Button>
        </Group>
      )}
    </Stack>
  );
}
