import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiError, json, publicConfig } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import {
  LIST,
  newest,
  older,
  page,
  releaseNote,
  releaseNotesApi,
  STATUS,
  status,
  VIEWED,
} from '../test-fixtures';

async function openPanel() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /^Release notes/ }));
  return { user, panel: await screen.findByRole('dialog', { name: 'Release notes' }) };
}

describe('the release notes toggle and panel', () => {
  // West of UTC: a plain date read through `Date` would show the day before.
  const zone = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('shows a dot while the newest is unviewed; the panel shows version, MM/DD/YYYY and the note, and marks it viewed', async () => {
    const mock = releaseNotesApi();
    signIn();
    renderApp('/ps/profile');
    expect(await screen.findByRole('button', { name: 'Release notes, new release' })).toBeVisible();

    const { panel } = await openPanel();
    const first = await within(panel).findByRole('article', { name: 'v1.7.4' });
    expect(within(first).getByText('11/24/2026')).toHaveAttribute('datetime', '2026-11-24');
    // The note is HTML: its heading, emphasis and link are elements, not text.
    expect(within(first).getByRole('heading', { name: 'Transit' })).toBeVisible();
    expect(within(first).getByText('twice as fast').tagName).toBe('STRONG');
    expect(within(first).getByRole('link', { name: 'Details' })).toHaveAttribute(
      'target',
      '_blank',
    );
    // A plain date, never moved by the time zone.
    const second = within(panel).getByRole('article', { name: 'v1.7.3' });
    expect(within(second).getByText('01/01/2026')).toBeVisible();
    expect(within(second).getByRole('listitem')).toHaveTextContent('Container numbers');

    await waitFor(() => expect(mock.callsTo(VIEWED)).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Release notes' })).toBeVisible();
    // Not for platform administrators only: no link to the management page.
    expect(within(panel).queryByRole('link', { name: 'Manage release notes' })).toBeNull();
  });

  it('marks nothing when the newest was viewed already, and shows no dot', async () => {
    const mock = releaseNotesApi({ [STATUS]: json(status({ has_unviewed: false })) });
    signIn();
    renderApp('/ps/profile');
    const { panel } = await openPanel();
    expect(await within(panel).findByRole('article', { name: 'v1.7.4' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Release notes' })).toBeVisible();
    expect(mock.callsTo(VIEWED)).toHaveLength(0);
  });

  it('loads 10 more with Load more, and offers the management page to a platform administrator', async () => {
    const more = releaseNote({ id: '7e000000-0000-4000-8000-000000000009', version: 'v1.6.0' });
    const mock = releaseNotesApi({
      [STATUS]: json(status({ is_platform_admin: true })),
      [VIEWED]: json(status({ is_platform_admin: true, has_unviewed: false })),
      [LIST]: (call) =>
        json(
          new URL(call.url, 'http://x').searchParams.get('page') === '2'
            ? { ...page([more]), count: 3, previous: 1 }
            : { ...page([newest, older], 2), count: 3 },
        ),
    });
    signIn();
    const view = renderApp('/ps/profile');
    const { user, panel } = await openPanel();
    await user.click(await within(panel).findByRole('button', { name: 'Load more' }));
    expect(await within(panel).findByRole('article', { name: 'v1.6.0' })).toBeVisible();
    expect(mock.callsTo(LIST).map((c) => new URL(c.url, 'http://x').search)).toEqual([
      '?page=1&limit=10',
      '?page=2&limit=10',
    ]);
    await user.click(within(panel).getByRole('link', { name: 'Manage release notes' }));
    await waitFor(() => expect(view.location()).toBe('/ps/release-notes'));
  });

  it('says when there are none yet', async () => {
    const mock = releaseNotesApi({
      [STATUS]: json(status({ latest_id: null, latest_version: null, has_unviewed: false })),
      [LIST]: json(page([])),
    });
    signIn();
    renderApp('/ps/profile');
    const { panel } = await openPanel();
    expect(await within(panel).findByText('No release notes yet.')).toBeVisible();
    expect(mock.callsTo(VIEWED)).toHaveLength(0);
  });

  it('a failed load says so with Try again', async () => {
    const mock = releaseNotesApi({
      // Retried once by the query client, then shown.
      [LIST]: [
        apiError(503, 'SERVICE_UNAVAILABLE', 'Down.'),
        apiError(503, 'SERVICE_UNAVAILABLE', 'Down.'),
        json(page([newest])),
      ],
    });
    signIn();
    renderApp('/ps/profile');
    const { user, panel } = await openPanel();
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('The release notes could not be loaded');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(panel).findByRole('article', { name: 'v1.7.4' })).toBeVisible();
    await waitFor(() => expect(mock.callsTo(VIEWED)).toHaveLength(1));
  });

  it('is not there outside the transit profile', async () => {
    const mock = releaseNotesApi({
      'GET /v1/config': json({ ...publicConfig, app_profile: 'skuflex', modules: ['SKUF'] }),
    });
    signIn();
    renderApp('/ps/profile');
    expect(await screen.findByRole('button', { name: /^Notifications/ })).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Release notes/ })).toBeNull();
    expect(mock.callsTo(STATUS)).toHaveLength(0);
  });
});
