import { useLayoutEffect } from 'react';

/**
 * Where the layout on screen lets toasts start: below the app shell's header on signed-in pages,
 * below the logo on the public pages. The layout marks the document root with
 * `data-toast-area`; global.css turns that into the `top` of the top-centre toasts, so a toast
 * never covers the logo, the header or its controls.
 */
export type ToastArea = 'app' | 'auth';

export const TOAST_AREA_ATTRIBUTE = 'data-toast-area';

export function useToastArea(area: ToastArea): void {
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.setAttribute(TOAST_AREA_ATTRIBUTE, area);
    return () => {
      if (root.getAttribute(TOAST_AREA_ATTRIBUTE) === area)
        root.removeAttribute(TOAST_AREA_ATTRIBUTE);
    };
  }, [area]);
}
