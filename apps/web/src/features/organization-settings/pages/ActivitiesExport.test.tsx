import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, mockApi, type RecordedCall } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, ORG_ID, organization, page } from '../../../test/tenant-fixtures';
import { createRowCounter } from '../api/activities-export';

const BASE = `/ps/organization-settings/${ORG_ID}`;
const EXPORT = `GET /v1/organizations/${ORG_ID}/activities/export/`;
const HEADER =
  'created,action,user_email,user_name,object_type,object_id,workspace,module,data\r\n';
const row = (n: number) =>
  `2026-03-0${n}T12:00:00.000Z,SIGN_IN,ada@example.com,Ada Lovelace,user,u${n},,,"{""n"":${n}}"\r\n`;

/** A body the test feeds chunk by chunk: `push` enqueues, `end` closes. */
function controlledStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

function exportAnswer(body: BodyInit, headers: Record<string, string> = {}) {
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition':
        'attachment; filename="activities-demo-shipping-co-2026-03-01-2026-03-31.csv"',
      'X-Export-Count': '5',
      ...headers,
    },
  });
}

function activitiesApi(exportReply: Response | ((call: RecordedCall) => Response)) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization('ADMIN')),
    [`GET /v1/organizations/${ORG_ID}/activities/`]: json(page([])),
    [EXPORT]: exportReply,
  });
}

/** Saved files: the Blob given to createObjectURL and the name of the link clicked. */
const saved: { blobs: Blob[]; names: string[] } = { blobs: [], names: [] };

beforeEach(() => {
  saved.blobs = [];
  saved.names = [];
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    writable: true,
    value: vi.fn((blob: Blob) => {
      saved.blobs.push(blob);
      return `blob:http://localhost/${saved.blobs.length}`;
    }),
  });
  Object.defineProperty(URL, 'revokeObjectURL', {
    configurable: true,
    writable: true,
    value: vi.fn(),
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

async function openExport(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Export' }));
  return screen.findByRole('dialog', { name: 'Export activities' });
}

function setDate(dialog: HTMLElement, label: string, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
}

describe('Activities export', () => {
  it('sends the format, the dates and the page’s action and search', async () => {
    const mock = activitiesApi(exportAnswer(HEADER + row(1)));
    signIn();
    renderApp(`${BASE}/activities`);
    const user = userEvent.setup();

    await user.click(await screen.findByPlaceholderText('All actions'));
    await user.click(await screen.findByRole('option', { name: 'Signed in' }));
    await user.type(screen.getByRole('textbox', { name: 'Search activities' }), 'ada');
    await waitFor(() =>
      expect(mock.callsTo(`GET /v1/organizations/${ORG_ID}/activities/`).at(-1)?.url).toContain(
        'key=ada',
      ),
    );

    const dialog = await openExport(user);
    expect(within(dialog).getByText(/the action “Signed in” and the search “ada”/)).toBeVisible();
    await user.click(within(dialog).getByRole('radio', { name: 'JSON Lines' }));
    setDate(dialog, 'From date', '2026-03-01');
    setDate(dialog, 'To date', '2026-03-31');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));

    await waitFor(() => expect(mock.callsTo(EXPORT)).toHaveLength(1));
    const call = mock.callsTo(EXPORT)[0]!;
    const query = new URL(call.url, 'http://localhost').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      format: 'jsonl',
      from_date: '2026-03-01',
      to_date: '2026-03-31',
      action: 'SIGN_IN',
      key: 'ada',
    });
    expect(call.headers.get('Authorization')).toMatch(/^Bearer .+/);
  });

  it('shows the progress of a streamed body, then saves it under the server’s name', async () => {
    const body = controlledStream();
    activitiesApi(exportAnswer(body.stream));
    signIn();
    renderApp(`${BASE}/activities`);
    const user = userEvent.setup();
    const dialog = await openExport(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));

    // The header row and a row cut in the middle: no activity yet.
    body.push(HEADER + row(1).slice(0, 20));
    expect(await within(dialog).findByText('Exported 0 of 5 activities…')).toBeVisible();
    body.push(row(1).slice(20) + row(2));
    expect(await within(dialog).findByText('Exported 2 of 5 activities…')).toBeVisible();
    expect(within(dialog).getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    body.push(row(3) + row(4));
    expect(await within(dialog).findByText('Exported 4 of 5 activities…')).toBeVisible();
    expect(saved.names).toEqual([]);
    body.push(row(5));
    body.end();

    expect(await screen.findByText('Exported 5 activities')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved.names).toEqual(['activities-demo-shipping-co-2026-03-01-2026-03-31.csv']);
    expect(await saved.blobs[0]!.text()).toBe(HEADER + row(1) + row(2) + row(3) + row(4) + row(5));
  });

  it('without X-Export-Count the bar is indeterminate; a missing file name falls back', async () => {
    const body = controlledStream();
    activitiesApi(
      new Response(body.stream, {
        status: 200,
        headers: { 'Content-Type': 'application/x-ndjson' },
      }),
    );
    signIn();
    renderApp(`${BASE}/activities`);
    const user = userEvent.setup();
    const dialog = await openExport(user);
    await user.click(within(dialog).getByRole('radio', { name: 'JSON Lines' }));
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    body.push('{"action":"SIGN_IN"}\n{"action":"ADD_MEMBER"}\n');
    expect(await within(dialog).findByText('Exported 2 activities…')).toBeVisible();
    expect(
      within(dialog).getByRole('progressbar', { name: 'Export progress' }),
    ).not.toHaveAttribute('aria-valuenow');
    body.push('{"action":"SIGN_IN"}');
    body.end();
    expect(await screen.findByText('Exported 3 activities')).toBeVisible();
    expect(saved.names).toEqual(['activities.jsonl']);
  });

  it('a 400 on to_date shows at the To date field', async () => {
    const mock = activitiesApi(
      apiError(400, 'VALIDATION_ERROR', 'The query is not valid.', [
        { field: 'to_date', message: 'The export cannot end in the future.' },
      ]),
    );
    signIn();
    renderApp(`${BASE}/activities`);
    const user = userEvent.setup();
    const dialog = await openExport(user);
    setDate(dialog, 'To date', '2099-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));

    const to = within(dialog).getByLabelText('To date');
    await waitFor(() => expect(to).toHaveAccessibleDescription(/cannot end in the future/));
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('From date')).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(mock.callsTo(EXPORT)).toHaveLength(1);
    expect(saved.names).toEqual([]);
  });

  it('a 403 is explained in an alert with what to do', async () => {
    activitiesApi(apiError(403, 'PERMISSION_DENIED', 'Denied.'));
    signIn();
    renderApp(`${BASE}/activities`);
    const user = userEvent.setup();
    const dialog = await openExport(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      /Only owners and admins .* reload the page/,
    );
  });

  it('the start date after the end date is refused before any request', async () => {
    const mock = activitiesApi(exportAnswer(HEADER));
    signIn();
    renderApp(`${BASE}/activities`);
    const user = userEvent.setup();
    const dialog = await openExport(user);
    setDate(dialog, 'From date', '2026-03-10');
    setDate(dialog, 'To date', '2026-03-01');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    expect(
      await within(dialog).findByText('The end date must be on or after the start date.'),
    ).toBeVisible();
    expect(mock.callsTo(EXPORT)).toHaveLength(0);
  });

  it('Cancel aborts the running export, says so and saves nothing', async () => {
    const body = controlledStream();
    const mock = activitiesApi(exportAnswer(body.stream));
    signIn();
    renderApp(`${BASE}/activities`);
    const user = userEvent.setup();
    const dialog = await openExport(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    body.push(HEADER + row(1));
    expect(await within(dialog).findByText('Exported 1 of 5 activities…')).toBeVisible();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await within(dialog).findByText('Export cancelled')).toBeVisible();
    expect(within(dialog).getByText(/Nothing was saved/)).toBeVisible();
    const init = mock.fetch.mock.calls.find(([url]) => String(url).includes('/export/'))?.[1];
    expect(init?.signal?.aborted).toBe(true);
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Export activities' })).toBeVisible();
    expect(saved.names).toEqual([]);
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it('STAFF see no Export button', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization('STAFF')),
    });
    signIn();
    renderApp(`${BASE}/activities`);
    expect(await screen.findByText('Only owners and admins see activities')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });
});

describe('createRowCounter', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('CSV: the header is not a row, a quoted line break does not end one, chunks cut anywhere', () => {
    const counter = createRowCounter('csv');
    const text = `${HEADER}a,"two\r\nlines",x\r\nb,"say ""hi""",y\r\nc,last,z`;
    for (let i = 0; i < text.length; i += 3) counter.push(bytes(text.slice(i, i + 3)));
    expect(counter.rows).toBe(2);
    expect(counter.finalRows).toBe(3);
  });

  it('JSON Lines: every non-empty line is a row', () => {
    const counter = createRowCounter('jsonl');
    counter.push(bytes('{"a":"é"}\n\n{"b":1}\n'));
    expect(counter.rows).toBe(2);
    expect(counter.finalRows).toBe(2);
  });
});
