import type { DataExport } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatBytes } from '../../../lib/data-exports';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';

const LIST = 'GET /v1/data-exports/';
const ASK = 'POST /v1/data-exports/';
const ID = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

function item(fields: Partial<DataExport> = {}): DataExport {
  return {
    id: ID,
    kind: 'USER',
    organization_id: null,
    status: 'PENDING',
    file_name: null,
    size_bytes: null,
    error: null,
    created: '2026-05-04T09:30:00.000Z',
    completed: null,
    expires: null,
    is_expired: false,
    download_url: null,
    ...fields,
  };
}
const ready = item({
  status: 'READY',
  file_name: 'portolan-my-data-2026-05-04.zip',
  size_bytes: 1_258_291,
  completed: '2026-05-04T09:31:00.000Z',
  expires: '2026-05-05T09:31:00.000Z',
  download_url: `/v1/data-exports/${ID}/download/`,
});
const page = (results: DataExport[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

const saved: { blobs: Blob[]; names: string[] } = { blobs: [], names: [] };
beforeEach(() => {
  saved.blobs = [];
  saved.names = [];
  Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => {
      saved.blobs.push(blob);
      return 'blob:export';
    }),
    revokeObjectURL: vi.fn(),
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.names.push(this.download);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const yourData = async () => screen.findByRole('region', { name: 'Your data' });

describe('My Settings, Your data', () => {
  it('says there is no export yet, asks for one and follows it until it is ready', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [LIST]: [
        json(page([])),
        json(page([item()])),
        json(page([item({ status: 'RUNNING' })])),
        json(page([ready])),
      ],
      [ASK]: json(item(), 202),
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();
    const section = await yourData();
    expect(await within(section).findByText('No exports yet')).toBeVisible();

    await user.click(within(section).getByRole('button', { name: 'Export my data' }));
    expect(mock.callsTo(ASK)).toHaveLength(1);
    expect(await screen.findByText(/Your export has been requested/)).toBeVisible();
    expect(await within(section).findByText('Pending')).toBeVisible();
    expect(within(section).getByRole('status')).toHaveTextContent(/being prepared/);
    // One at a time: the button waits while the export is built.
    expect(within(section).getByRole('button', { name: 'Export my data' })).toBeDisabled();

    // Polled every 2 seconds until it is ready.
    expect(await within(section).findByText('Building', {}, { timeout: 5_000 })).toBeVisible();
    expect(await within(section).findByText('Ready', {}, { timeout: 5_000 })).toBeVisible();
    expect(within(section).getByText(formatBytes(1_258_291))).toBeVisible();
    expect(formatBytes(1_258_291)).toBe('1.2 MB');
    expect(within(section).getByRole('status')).toHaveTextContent(/ready\. Download it until/);
    expect(within(section).getByRole('button', { name: 'Export my data' })).toBeEnabled();
    const calls = mock.callsTo(LIST).length;
    await new Promise((r) => setTimeout(r, 2_500));
    expect(mock.callsTo(LIST)).toHaveLength(calls);
  }, 20_000);

  it('downloads a ready archive with the token and saves it under the server’s name', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [LIST]: json(page([ready])),
      [`GET /v1/data-exports/${ID}/download/`]: new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
        status: 200,
        headers: {
          'Content-Type': 'application/zip',
          'Content-Disposition': 'attachment; filename="portolan-my-data-2026-05-04.zip"',
        },
      }),
    });
    const token = signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();
    const section = await yourData();
    await user.click(
      await within(section).findByRole('button', { name: /^Download the export of/ }),
    );
    await waitFor(() => expect(saved.names).toEqual(['portolan-my-data-2026-05-04.zip']));
    expect(saved.blobs[0]?.size).toBe(4);
    const call = mock.callsTo(`GET /v1/data-exports/${ID}/download/`)[0];
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${token}`);
  });

  it('shows a failed export with its reason, an expired one without Download', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [LIST]: json(
        page([
          item({ status: 'FAILED', error: 'The export could not be built.' }),
          {
            ...ready,
            id: '4d1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
            is_expired: true,
            download_url: null,
          },
        ]),
      ),
    });
    signIn();
    renderApp('/ps/profile');
    const section = await yourData();
    const table = await within(section).findByRole('table', { name: 'Your data exports' });
    expect(within(table).getByText('Failed')).toBeVisible();
    expect(within(table).getByText('The export could not be built.')).toBeVisible();
    expect(within(table).getByText('Expired')).toBeVisible();
    expect(within(table).queryByRole('button', { name: /Download/ })).toBeNull();
  });

  it('says why an export could not be asked for (409), in the server’s words', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [LIST]: json(page([])),
      [ASK]: apiError(
        409,
        'DATA_EXPORT_IN_PROGRESS',
        'An export of your data is already being prepared.',
      ),
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();
    const section = await yourData();
    await user.click(await within(section).findByRole('button', { name: 'Export my data' }));
    expect(
      await screen.findByText('An export of your data is already being prepared.'),
    ).toBeVisible();
  });

  it('offers Try again when the exports cannot be loaded', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [LIST]: [apiError(400, 'BAD_REQUEST', 'Nope.'), json(page([]))],
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();
    const section = await yourData();
    expect(await within(section).findByText('The exports could not be loaded')).toBeVisible();
    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByText('No exports yet')).toBeVisible();
    expect(mock.callsTo(LIST)).toHaveLength(2);
  });
});
