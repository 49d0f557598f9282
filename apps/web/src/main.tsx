import './app/mantine-styles';
import '@mantine/notifications/styles.css';
import '@mantine/nprogress/styles.css';
import './app/global.css';

import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { ensurePortalRoot } from './app/portal-root';
import { createAppRouter } from './app/router';
import { prefetchFirstScreen } from './lib/prefetch';
import { startSession } from './lib/session';
import { showNewerVersionToast } from './lib/toasts';

// Vite reports a failed preload of a lazy chunk this way (usually a newer deployment).
window.addEventListener('vite:preloadError', () => showNewerVersionToast());

ensurePortalRoot();
startSession();
const router = createAppRouter();
prefetchFirstScreen();

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html.');

const root = createRoot(container);
// The first render as a transition: React renders it in slices of a few milliseconds, yielding
// to the browser between them, instead of one long task (total blocking time on a slow phone).
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
});
