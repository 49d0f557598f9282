/**
 * The public pages of the web app: the sign-in layout's pages (spec §2), which need only the code
 * of the public pages. The server sends them index.html, and every other page app.html, which also
 * preloads the signed-in layout's code (apps/web/vite.config.ts `firstScreenHtml`). A page missing
 * here still works; it only downloads more, or later, than it needs. `router.test.tsx` checks the
 * list against the routes of the sign-in layout.
 */
export const PUBLIC_PAGES: readonly string[] = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/google-auth',
  '/reset-password',
  '/error',
  '/no-access',
  '/server-error',
  '/ps/clients/invitation',
  '/ps/organizations/invitation',
];

/** Whether `pathname` is a public page: one of PUBLIC_PAGES, or a shared view (`/share/`). */
export function isPublicPage(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return PUBLIC_PAGES.includes(path) || path.includes('/share/');
}
