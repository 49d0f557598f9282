import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach } from 'vitest';
import { useAuthStore } from './src/lib/auth-store';
import { resetLoadingStore } from './src/lib/loading-store';
import { clearMfaRefusal } from './src/lib/mfa-required';
import { forgetLastPage, registerNavigator } from './src/lib/navigation';
import { queryClient } from './src/lib/query-client';
import { resetStepUp } from './src/lib/step-up';

// Pages are lazy chunks: the first render of one in a run can take a moment to transform.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks the layout APIs Mantine relies on.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}

class ResizeObserverPolyfill {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverPolyfill,
  });
}
window.HTMLElement.prototype.scrollIntoView = function scrollIntoView() {};
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  notifications.clean();
  queryClient.clear();
  useAuthStore.getState().clear();
  resetLoadingStore();
  resetStepUp();
  clearMfaRefusal();
  registerNavigator(null);
  forgetLastPage();
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
