import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { relogin, useAuthStore } from '../../../lib/auth-store';
import { apiError, json, mockApi, tokenExpiringIn } from '../../../test/api-mock';
import { AppProviders } from '../../../test/render-app';
import { WorkspaceBranding } from './WorkspaceBranding';

const A = '0c000000-0000-4000-8000-00000000000a';
const B = '0c000000-0000-4000-8000-00000000000b';
const C = '0c000000-0000-4000-8000-00000000000c';
const LOGO = '/uploads/3f2a1c9e-1b2c-4d3e-8f90-123456789abc.png';
const CSS_A = 'header { background-color: rgb(194, 37, 92); }';

/** The settings as the API answers them: the stylesheet as written and as scoped. */
const branding = (logo: string | null, css: string) => ({
  default_client_header_logo: logo,
  custom_css: css,
  scoped_css: css && `[data-workspace-style] ${css}`,
});

const settingsPath = (id: string) => `GET /v1/clients/${id}/seller-settings/`;
const styles = () => [
  ...document.head.querySelectorAll<HTMLStyleElement>('style[data-workspace-css]'),
];

function current(id: string | null, name = 'Harbour') {
  act(() => {
    useAuthStore.setState({
      userToken: tokenExpiringIn(600),
      isAuth: true,
      current_client: id ? { id, name, modules: [{ module: 'TR', enabled: true }] } : null,
    });
  });
}

function renderBranding() {
  return render(
    <AppProviders env="test">
      <WorkspaceBranding />
    </AppProviders>,
  );
}

describe('WorkspaceBranding', () => {
  it('applies the current workspace’s stylesheet and logo, and swaps them on a switch', async () => {
    const mock = mockApi({
      [settingsPath(A)]: json(branding(LOGO, CSS_A)),
      [settingsPath(B)]: json(branding(null, '')),
    });
    current(A, 'Harbour');
    renderBranding();

    expect(await screen.findByRole('img', { name: 'Harbour' })).toHaveAttribute('src', LOGO);
    await waitFor(() => expect(styles()).toHaveLength(1));
    const [style] = styles();
    expect(style!.id).toBe('custom-css');
    expect(style!.dataset.workspaceCss).toBe(A);
    // As the API scoped it: the app shell's regions only, never a modal's header.
    expect(style!.textContent).toBe(`[data-workspace-style] ${CSS_A}`);
    expect(document.head.lastElementChild).toBe(style);

    // B has no branding: A's go at once and nothing takes their place.
    current(B, 'Dock');
    expect(styles()).toHaveLength(0);
    expect(screen.queryByRole('img')).toBeNull();
    await waitFor(() => expect(mock.callsTo(settingsPath(B))).toHaveLength(1));
    expect(styles()).toHaveLength(0);

    // Back to A: applied again.
    current(A, 'Harbour');
    await waitFor(() => expect(styles().map((s) => s.dataset.workspaceCss)).toEqual([A]));
    expect(await screen.findByRole('img', { name: 'Harbour' })).toBeVisible();

    // No workspace current (an organization switch): nothing.
    current(null);
    expect(styles()).toHaveLength(0);
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('is removed on relogin and stays away until the workspace is current again', async () => {
    mockApi({ [settingsPath(A)]: json(branding(null, CSS_A)) });
    current(A);
    renderBranding();
    await waitFor(() => expect(styles()).toHaveLength(1));

    act(() => relogin());
    expect(styles()).toHaveLength(0);
    expect(useAuthStore.getState().current_client).toBeNull();

    // Signed in again: nothing until A is current.
    act(() => useAuthStore.setState({ userToken: tokenExpiringIn(600), isAuth: true }));
    expect(styles()).toHaveLength(0);
    current(A);
    await waitFor(() => expect(styles()).toHaveLength(1));
  });

  it('sets the stylesheet as text: markup in it never becomes elements', async () => {
    const css = 'a { color: red } /* </style><img src=x onerror=alert(1)> */';
    mockApi({ [settingsPath(C)]: json(branding(null, css)) });
    current(C);
    renderBranding();
    await waitFor(() => expect(styles()).toHaveLength(1));
    expect(styles()[0]!.textContent).toBe(`[data-workspace-style] ${css}`);
    expect(styles()[0]!.children).toHaveLength(0);
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });

  it('leaves the workspace unbranded, silently, when its settings cannot be read', async () => {
    const mock = mockApi({ [settingsPath(A)]: apiError(500, 'INTERNAL_ERROR', 'Oops') });
    current(A);
    renderBranding();
    await waitFor(() => expect(mock.callsTo(settingsPath(A)).length).toBeGreaterThan(0));
    expect(styles()).toHaveLength(0);
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByText(/something wrong/i)).toBeNull();
  });

  it('fetches nothing while no workspace is current', async () => {
    const mock = mockApi({});
    current(null);
    renderBranding();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(mock.calls).toHaveLength(0);
  });
});
