/**
 * Stands in for `@tanstack/devtools-event-client` (an alias in vite.config.ts). TanStack Form
 * reports each form's state to a devtools panel the console does not ship; the real client keeps
 * those reports and tries to reach the panel every second on every page, and it was 4 KB of the
 * sign-in screen's first download.
 */
export class EventClient {
  emit(): void {}
  on(): () => void {
    return () => {};
  }
}
