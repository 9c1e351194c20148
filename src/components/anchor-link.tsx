import { Anchor, type AnchorProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

type AnchorElementProps = AnchorProps &
  Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof AnchorProps> & {
    ref?: Ref<HTMLAnchorElement>;
  };

function MantineAnchor(props: AnchorElementProps) {
  return <Anchor {...props} />;
}

/** A Mantine text link that is a router link, with typed `to`, `params` and `search`. */
export const AnchorLink = createLink(MantineAnchor);
