import { useEffect, useState } from 'react';

/** How long a busy page may hold back background work before it starts anyway. */
const IDLE_TIMEOUT_MS = 1_500;

/**
 * False during the page's first render and until the browser is first idle after it (at most
 * IDLE_TIMEOUT_MS), then true. Work the first screen does not need (the bell's count and its push
 * stream) waits for it, so it does not lengthen the long tasks of the first load.
 */
export function useAfterLoad(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setReady(true), { timeout: IDLE_TIMEOUT_MS });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setReady(true), 0);
    return () => clearTimeout(timer);
  }, [ready]);
  return ready;
}
