import { Notifications, notifications, notificationsStore } from '@mantine/notifications';
import { useEffect } from 'react';
import classes from './toasts.module.css';

type AutoClose = boolean | number | undefined;

/**
 * While the window is in the background, toasts stay: each one's auto-close is switched off on
 * blur (including toasts shown meanwhile) and given back on focus, when its timer starts anew.
 */
export function pauseToastsWhileBlurred(win: Window = window): () => void {
  const paused = new Map<string, AutoClose>();
  let unsubscribe: (() => void) | undefined;

  const pauseVisible = () => {
    const { notifications: shown, queue } = notificationsStore.getState();
    const fresh = [...shown, ...queue].filter((n) => n.id && !paused.has(n.id));
    if (fresh.length === 0) return;
    for (const n of fresh) paused.set(n.id!, n.autoClose);
    notifications.updateState(notificationsStore, (all) =>
      all.map((n) => (n.id && fresh.some((f) => f.id === n.id) ? { ...n, autoClose: false } : n)),
    );
  };

  const onBlur = () => {
    pauseVisible();
    unsubscribe ??= notificationsStore.subscribe(pauseVisible);
  };
  const onFocus = () => {
    unsubscribe?.();
    unsubscribe = undefined;
    if (paused.size === 0) return;
    const restore = new Map(paused);
    paused.clear();
    notifications.updateState(notificationsStore, (all) =>
      all.map((n) => (n.id && restore.has(n.id) ? { ...n, autoClose: restore.get(n.id) } : n)),
    );
  };

  win.addEventListener('blur', onBlur);
  win.addEventListener('focus', onFocus);
  return () => {
    win.removeEventListener('blur', onBlur);
    win.removeEventListener('focus', onFocus);
    onFocus();
  };
}

/**
 * The toast outlet: bottom-left, newest on top, 5 s by default, no progress bar; hovering pauses
 * (Mantine) and so does the window losing focus.
 */
export function Toasts() {
  useEffect(() => pauseToastsWhileBlurred(), []);
  return (
    <Notifications
      position="bottom-left"
      autoClose={5000}
      withAutoCloseProgress={false}
      classNames={{ root: classes.root, notification: classes.notification }}
    />
  );
}
