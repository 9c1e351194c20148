import { useEffect, useState } from 'react';

/**
 * True while `active` is, and for `ms` after it turns false: a refresh that answers in 20 ms still
 * shows its spinner long enough to be seen.
 */
export function useLingering(active: boolean, ms: number): boolean {
  const [lingering, setLingering] = useState(false);
  const [previous, setPrevious] = useState(active);
  if (previous !== active) {
    setPrevious(active);
    setLingering(!active);
  }
  useEffect(() => {
    if (!lingering) return;
    const timer = window.setTimeout(() => setLingering(false), ms);
    return () => window.clearTimeout(timer);
  }, [lingering, ms]);
  return active || lingering;
}
