import type { ReleaseNote, ReleaseNoteStatus } from '@portolan/contract';
import { ada, json, mockApi, publicConfig, type Reply } from '../../test/api-mock';

/** Release notes as the API answers them, for the panel's and the management pages' tests. */

export const STATUS = 'GET /v1/release-notes/status/';
export const LIST = 'GET /v1/release-notes/';
export const VIEWED = 'POST /v1/release-notes/latest/viewed/';
export const PREVIEW = 'POST /v1/release-notes/preview/';

export function releaseNote(over: Partial<ReleaseNote> & { id: string }): ReleaseNote {
  return {
    version: 'v1.7.4',
    release_date: '2026-11-24',
    release_note: '<p>Shipment lists open <strong>twice as fast</strong>.</p>',
    created: '2026-11-24T09:00:00.000Z',
    modified: '2026-11-24T09:00:00.000Z',
    ...over,
  };
}

export const newest = releaseNote({
  id: '7e000000-0000-4000-8000-000000000002',
  release_note:
    '<h3>Transit</h3><p>Shipment lists open <strong>twice as fast</strong>. ' +
    '<a href="https://example.com/notes" rel="noopener noreferrer" target="_blank">Details</a></p>',
});
// January 1st: shown a day early by anything that reads the date through `Date` west of UTC.
export const older = releaseNote({
  id: '7e000000-0000-4000-8000-000000000001',
  version: 'v1.7.3',
  release_date: '2026-01-01',
  release_note: '<ul><li>Container numbers are checked as you type.</li></ul>',
});

export const status = (over: Partial<ReleaseNoteStatus> = {}): ReleaseNoteStatus => ({
  latest_id: newest.id,
  latest_version: newest.version,
  has_unviewed: true,
  is_platform_admin: false,
  ...over,
});

export const page = (results: ReleaseNote[], next: number | null = null) => ({
  count: results.length,
  next,
  previous: null,
  results,
});

/** A signed-in user on the transit profile, with release notes. */
export function releaseNotesApi(extra: Record<string, Reply | Reply[]> = {}) {
  return mockApi({
    'GET /v1/config': json(publicConfig),
    'GET /v1/rest-auth/user/': json(ada),
    'GET /v1/me/organizations/and/clients/': json({ count: 0, results: [] }),
    'GET /v1/user/notification/new/': json({ count: 0 }),
    [STATUS]: json(status()),
    [LIST]: json(page([newest, older])),
    [VIEWED]: json(status({ has_unviewed: false })),
    ...extra,
  });
}
