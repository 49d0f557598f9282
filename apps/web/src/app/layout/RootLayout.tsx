import { BRAND } from '@portolan/contract';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useMatches, useNavigation } from 'react-router';
import { useAnalyticsPageViews } from '../../lib/analytics';
import { trackRequest } from '../../lib/loading-store';
import { titleOf } from '../../lib/route-handle';

/** The page title comes from route meta, suffixed with the brand (spec §2). */
export function pageTitle(title: string | undefined): string {
  return title ? `${title} | ${BRAND}` : BRAND;
}

function useDocumentTitle() {
  const matches = useMatches();
  const title = pageTitle(titleOf(matches));
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** Loading a page's code counts as a request in flight for the progress bar. */
function useNavigationProgress() {
  const busy = useNavigation().state !== 'idle';
  useEffect(() => {
    if (!busy) return;
    return trackRequest();
  }, [busy]);
}

export function RootLayout() {
  useDocumentTitle();
  useNavigationProgress();
  useAnalyticsPageViews();
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
