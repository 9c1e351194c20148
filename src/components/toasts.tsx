import { notifications, notificationsStore } from '@mantine/notifications';
import { useEffect, useSyncExternalStore, type ComponentType } from 'react';

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

let ToastStack: ComponentType | undefined;
let loading: Promise<void> | undefined;
const loadListeners = new Set<() => void>();

/** Loads Mantine's toast outlet (ToastStack); a failed download is tried again next time. */
export function preloadToasts(): Promise<void> {
  loading ??= import('./toast-stack').then(
    (module) => {
      ToastStack = module.ToastStack;
      for (const listener of loadListeners) listener();
    },
    () => {
      loading = undefined;
    },
  );
  return loading;
}

/**
 * Loads the toast outlet once the browser is idle (after a second where it cannot tell, or two at
 * most where it stays busy). Returns a cancel.
 */
export function preloadToastsWhenIdle(): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => void preloadToasts(), { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(() => void preloadToasts(), 1000);
  return () => clearTimeout(id);
}

const subscribeToLoad = (listener: () => void) => {
  loadListeners.add(listener);
  return () => {
    loadListeners.delete(listener);
  };
};

/**
 * The toast outlet. Its code comes with the first toast or the signed-in layout, whichever is
 * first: the sign-in screens show none, and a phone opening them should not download it. The
 * window losing focus pauses toasts.
 */
export function Toasts() {
  // Not loaded when drawn at build (scripts/build/login-card.tsx).
  const loaded = useSyncExternalStore(
    subscribeToLoad,
    () => ToastStack !== undefined,
    () => false,
  );
  useEffect(() => pauseToastsWhileBlurred(), []);
  useEffect(() => {
    if (loaded) return undefined;
    const { notifications: shown, queue } = notificationsStore.getState();
    if (shown.length + queue.length > 0) {
      void preloadToasts();
      return undefined;
    }
    return notificationsStore.subscribe(() => void preloadToasts());
  }, [loaded]);
  return loaded && ToastStack ? <ToastStack /> : null;
}
