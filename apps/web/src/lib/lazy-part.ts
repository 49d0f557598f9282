import { lazy, type ComponentType } from 'react';
import { showNewerVersionToast } from './toasts';

/**
 * A part of a page in a chunk of its own (React.lazy), loaded when first rendered: code most
 * visits never run stays off the page's first load. Its chunk failing to load means a newer
 * version was deployed: say so with a Reload button, then let the error boundary show it.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(() =>
    load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        showNewerVersionToast();
        throw error;
      },
    ),
  );
}
