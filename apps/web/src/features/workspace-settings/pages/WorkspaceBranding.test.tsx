import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, CLIENT_ID, workspace } from '../../../test/tenant-fixtures';

const BASE = `/ps/client-settings/${CLIENT_ID}`;
const SETTINGS = `/v1/clients/${CLIENT_ID}/seller-settings/`;
const LOGO = '/uploads/3f2a1c9e-1b2c-4d3e-8f90-123456789abc.png';
const IMPORT_REFUSED =
  'Line 2: @import is not allowed: a workspace stylesheet cannot load another one. Put the rules here instead.';

describe('Workspace settings: Branding', () => {
  it('an OWNER sees the tab, saves a stylesheet, and reads the server’s refusal on the field', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace()),
      [`GET ${SETTINGS}`]: json({
        default_client_header_logo: LOGO,
        custom_css: '',
        scoped_css: '',
      }),
      [`PATCH ${SETTINGS}`]: [
        apiError(400, 'VALIDATION_ERROR', IMPORT_REFUSED, [
          { field: 'custom_css', message: IMPORT_REFUSED },
        ]),
        (call) =>
          json({ default_client_header_logo: LOGO, scoped_css: '', ...(call.body as object) }),
      ],
    });
    signIn();
    renderApp(`${BASE}/client-detail`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Branding' }));

    expect(await screen.findByRole('heading', { name: 'Branding' })).toBeVisible();
    const css = await screen.findByRole('textbox', { name: 'Custom stylesheet (CSS)' });
    expect(screen.getByText(LOGO)).toBeVisible();
    expect(screen.getByText(/^0 KB of 20 KB\./)).toBeVisible();

    fireEvent.change(css, { target: { value: 'a { color: red }\n@import "x.css";' } });
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(IMPORT_REFUSED)).toBeVisible();
    expect(css).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(css, { target: { value: 'header { background-color: #0b3d5c; }' } });
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The branding has been saved.')).toBeVisible();
    expect(mock.callsTo(`PATCH ${SETTINGS}`)[1]?.body).toEqual({
      default_client_header_logo: LOGO,
      custom_css: 'header { background-color: #0b3d5c; }',
    });
    expect(css).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('previews the stylesheet in an isolated sample and warns of low contrast before saving', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace()),
      [`GET ${SETTINGS}`]: json({
        default_client_header_logo: null,
        custom_css: '',
        scoped_css: '',
      }),
    });
    signIn();
    renderApp(`${BASE}/client-branding`);
    const css = await screen.findByRole('textbox', { name: 'Custom stylesheet (CSS)' });
    const preview = screen.getByRole('img', { name: 'Preview' });
    expect(screen.queryByText('Text may be hard to read')).toBeNull();

    // Light pink on pink: about 3:1, less than the 4.5:1 text needs.
    const low = 'header { color: #ffe3ec; background: #e64980 }';
    fireEvent.change(css, { target: { value: low } });
    expect(await screen.findByText('Text may be hard to read')).toBeVisible();
    expect(screen.getByText(/#ffe3ec on #e64980 is 3\.1:1/)).toBeVisible();
    // Applied inside the sample's shadow root only: the page itself has no such rule.
    const shadow = preview.shadowRoot!;
    expect(shadow.querySelector('[data-workspace-style] header')?.textContent).toBeTruthy();
    expect([...shadow.querySelectorAll('style')].map((s) => s.textContent)).toContain(low);
    expect([...document.querySelectorAll('style')].some((s) => s.textContent === low)).toBe(false);

    // Dark text on the same background reads: the warning goes. Nothing was saved meanwhile.
    fireEvent.change(css, { target: { value: 'header { color: #000; background: #e64980 }' } });
    await waitFor(() => expect(screen.queryByText('Text may be hard to read')).toBeNull());
    expect(mock.callsTo(`PATCH ${SETTINGS}`)).toHaveLength(0);
  });

  it('counts the size and refuses a stylesheet over 20 KB before sending it', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace({ role: 'ADMIN' })),
      [`GET ${SETTINGS}`]: json({
        default_client_header_logo: null,
        custom_css: 'a{}',
        scoped_css: '[data-workspace-style] a{}',
      }),
    });
    signIn();
    renderApp(`${BASE}/client-branding`);
    const css = await screen.findByRole('textbox', { name: 'Custom stylesheet (CSS)' });
    expect(css).toHaveValue('a{}');
    fireEvent.change(css, { target: { value: 'a{}'.padEnd(21 * 1024, ' ') } });
    expect(screen.getByText(/^21 KB of 20 KB\./)).toBeVisible();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The stylesheet is 21 KB: keep it within 20 KB.')).toBeVisible();
    expect(mock.callsTo(`PATCH ${SETTINGS}`)).toHaveLength(0);
  });

  it('a STAFF member has no tab; the page, opened directly, is read only', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace({ role: 'STAFF' })),
      [`GET ${SETTINGS}`]: json({
        default_client_header_logo: null,
        custom_css: 'a { color: red }',
      }),
    });
    signIn();
    renderApp(`${BASE}/client-branding`);
    expect(
      await screen.findByText(
        'Only an owner or an admin of this workspace can change its branding.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Branding' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Custom stylesheet (CSS)' })).toHaveAttribute(
      'readonly',
    );
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Upload a header logo/ })).toBeNull();
  });

  it('a failed load says so, with Retry', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace()),
      [`GET ${SETTINGS}`]: apiError(404, 'NOT_FOUND', 'Not found.'),
    });
    signIn();
    renderApp(`${BASE}/client-branding`);
    expect(await screen.findByText('The branding could not be loaded')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
    await waitFor(() => expect(screen.queryByLabelText('Loading the branding')).toBeNull());
  });
});
