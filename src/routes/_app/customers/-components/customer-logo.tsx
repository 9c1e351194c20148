import { Avatar } from '@mantine/core';

/**
 * A customer company's logo, or its initials while there is none or it cannot be loaded. Beside
 * the company's name wherever it shows, so it says nothing more to a screen reader.
 */
export function CustomerLogo({
  name,
  logoUrl,
  size,
}: {
  name: string;
  logoUrl: string | null;
  size: number;
}) {
  return (
    <Avatar
      src={logoUrl}
      name={name}
      color="initials"
      radius="sm"
      size={size}
      alt=""
      aria-hidden
      // A logo is rarely square: all of it, not its middle.
      imageProps={{ style: { objectFit: 'contain' } }}
    />
  );
}
