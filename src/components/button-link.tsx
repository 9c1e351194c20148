import { Button, type ButtonProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

type AnchorButtonProps = ButtonProps &
  Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof ButtonProps> & {
    ref?: Ref<HTMLAnchorElement>;
  };

function AnchorButton(props: AnchorButtonProps) {
  return <Button component="a" {...props} />;
}

/**
 * A Mantine button that is a router link: a real anchor, so it opens in a new tab on a middle
 * click and shows its address, with typed `to` and `params`.
 */
export const ButtonLink = createLink(AnchorButton);
