import { notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../src/components/notify';
import { Providers } from '../../src/providers';
import { createQueryClient } from '../../src/queries/query-client';
import { useFakeTimersForUser } from './support/fake-timers';

const renderToasts = () =>
  render(
    <Providers queryClient={createQueryClient()}>
      <div />
    </Providers>,
  );

/** Small steps, so that timers set by a render (the exit transition) run within `ms` too. */
const advance = (ms: number) => {
  for (let done = 0; done < ms; done += 50)
    act(() => vi.advanceTimersByTime(Math.min(50, ms - done)));
};

afterEach(() => act(() => notifications.clean()));

describe('toasts', () => {
  it('notify() shows a success toast for 3 seconds', () => {
    useFakeTimersForUser();
    renderToasts();
    act(() => void notify('Saved'));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    advance(2900);
    expect(screen.getByText('Saved')).toBeInTheDocument();
    advance(1000);
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('closes on click', async () => {
    const user = useFakeTimersForUser();
    renderToasts();
    act(() => void notify('Click me', { duration: 60_000 }));
    await user.click(screen.getByText('Click me'));
    advance(500);
    expect(screen.queryByText('Click me')).not.toBeInTheDocument();
  });

  it('waits while the window is in the background, then closes after focus', () => {
    useFakeTimersForUser();
    renderToasts();
    act(() => void notify('Saved'));
    act(() => void window.dispatchEvent(new Event('blur')));
    advance(10_000);
    expect(screen.getByText('Saved')).toBeInTheDocument();

    // Shown while in the background: it waits as well.
    act(() => void notify('Meanwhile', { type: 'error', duration: 1000 }));
    advance(10_000);
    expect(screen.getByText('Meanwhile')).toBeInTheDocument();

    act(() => void window.dispatchEvent(new Event('focus')));
    advance(1500);
    expect(screen.queryByText('Meanwhile')).not.toBeInTheDocument();
    expect(screen.getByText('Saved')).toBeInTheDocument();
    advance(2000);
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });
});
