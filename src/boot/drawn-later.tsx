import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * The console's one deferred render: its children are drawn in a render of their own, as a
 * transition, once what surrounds them is on the screen. React draws a transition in slices with
 * the browser's other work between them, so a big screen is not one long task that holds a
 * phone's main thread. Nested, each level is a render and a commit of its own (the signed-in
 * layout, then its screen), which `useDeferredValue` is not: mounted inside a deferred render it
 * gives its final value at once.
 */
export function DrawnLater({ children }: { children: ReactNode }) {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => startTransition(() => setDrawn(true)), []);
  return drawn && children;
}
