import type { UserEvent } from '@testing-library/user-event';

/**
 * Puts text into a field as `user.type` does (a click, then the text at the caret), in one input
 * event rather than a keystroke a character: for fields whose keystrokes are not under test. A
 * keystroke redraws the form, and on the larger screens typing took most of a test's time.
 */
export async function typeText(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}
