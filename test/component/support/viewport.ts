/**
 * A matchMedia whose `(min-width: Npx)` queries answer for a chosen viewport width and notify
 * listeners when it changes (setup.ts's stub answers false but for reduced motion: a narrow screen).
 */
type Listener = (event: MediaQueryListEvent) => void;
const lists = new Set<{ query: string; listeners: Set<Listener>; last: boolean }>();
let width = 390;
/** setup.ts's stub, while a test has it replaced. */
let original: typeof window.matchMedia | undefined;

/** Tests run as for a user who asked for reduced motion (setup.ts). */
export const isReducedMotion = (query: string) => /prefers-reduced-motion:\s*reduce/.test(query);

const evaluate = (query: string) => {
  if (isReducedMotion(query)) return true;
  const min = /\(min-width:\s*([\d.]+)px\)/.exec(query);
  return min ? width >= Number(min[1]) : false;
};

function fakeMatchMedia(query: string): MediaQueryList {
  const entry = { query, listeners: new Set<Listener>(), last: evaluate(query) };
  lists.add(entry);
  return {
    get matches() {
      return evaluate(query);
    },
    media: query,
    onchange: null,
    addListener: (l: Listener) => entry.listeners.add(l),
    removeListener: (l: Listener) => entry.listeners.delete(l),
    addEventListener: (_: string, l: Listener) => entry.listeners.add(l),
    removeEventListener: (_: string, l: Listener) => entry.listeners.delete(l),
    dispatchEvent: () => false,
  } as unknown as MediaQueryList;
}

/** Sets the viewport width seen by media queries, telling those whose answer changed. */
export function setViewportWidth(px: number) {
  width = px;
  original ??= window.matchMedia;
  window.matchMedia = fakeMatchMedia;
  for (const entry of lists) {
    const matches = evaluate(entry.query);
    if (matches === entry.last) continue;
    entry.last = matches;
    const event = { matches, media: entry.query } as MediaQueryListEvent;
    entry.listeners.forEach((listener) => listener(event));
  }
}

/** Back to setup.ts's narrow screen after a test (setup.ts, after each test of every file). */
export function resetViewport() {
  if (original) window.matchMedia = original;
  original = undefined;
  lists.clear();
  width = 390;
}
