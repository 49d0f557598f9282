import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import {
  LIST,
  newest,
  older,
  page,
  PREVIEW,
  releaseNotesApi,
  STATUS,
  status,
} from '../test-fixtures';

const admin = () => json(status({ is_platform_admin: true }));
const NOTE = `GET /v1/release-notes/${older.id}/`;

describe('the release notes management pages', () => {
  it('lists the notes with their dates for a platform administrator; Delete asks first', async () => {
    const mock = releaseNotesApi({
      [STATUS]: admin(),
      [`DELETE /v1/release-notes/${older.id}/`]: new Response(null, { status: 204 }),
    });
    signIn();
    renderApp('/ps/release-notes');
    const table = await screen.findByRole('table', { name: 'Release notes' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('v1.7.4');
    expect(rows[1]).toHaveTextContent('11/24/2026');
    expect(rows[2]).toHaveTextContent('v1.7.3');
    expect(within(rows[2]!).getByRole('link', { name: 'Edit v1.7.3' })).toHaveAttribute(
      'href',
      `/ps/release-notes/${older.id}`,
    );

    mock.on(LIST, json(page([newest])));
    const user = userEvent.setup();
    await user.click(within(rows[2]!).getByRole('button', { name: 'Delete v1.7.3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete release note v1.7.3?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Release note v1.7.3 was deleted.')).toBeVisible();
    expect(mock.callsTo(`DELETE /v1/release-notes/${older.id}/`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: /v1\.7\.3/ })).toBeNull());
  });

  it('tells anyone else that only platform administrators manage release notes', async () => {
    const mock = releaseNotesApi({ [STATUS]: json(status({ is_platform_admin: false })) });
    signIn();
    renderApp('/ps/release-notes/new');
    expect(await screen.findByText('Platform administrators only')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: /Version/ })).toBeNull();
    expect(mock.callsTo(LIST)).toHaveLength(0);
  });

  it('publishes a new note: live preview of the sanitized HTML, then back to the list', async () => {
    const mock = releaseNotesApi({
      [STATUS]: admin(),
      [PREVIEW]: (call) =>
        json({
          release_note: String((call.body as { release_note: string }).release_note).replace(
            /<script>.*?<\/script>/g,
            '',
          ),
        }),
      'POST /v1/release-notes/': json(
        { ...newest, id: '7e000000-0000-4000-8000-0000000000aa', version: 'v1.8.0' },
        201,
      ),
    });
    signIn();
    const view = renderApp('/ps/release-notes/new');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /^Version/ }), 'v1.8.0');
    fireEvent.change(screen.getByLabelText(/^Release date/), { target: { value: '2026-12-01' } });
    const note = screen.getByRole('textbox', { name: /^Release note/ });
    await user.click(note);
    await user.paste('<p>Live <strong>tracking</strong></p><script>x()</script>');

    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText('tracking')).toHaveProperty('tagName', 'STRONG');
    expect(preview.querySelector('script')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Publish release note' }));
    expect(await screen.findByText('Release note v1.8.0 was published.')).toBeVisible();
    expect(mock.callsTo('POST /v1/release-notes/')[0]?.body).toEqual({
      version: 'v1.8.0',
      release_date: '2026-12-01',
      release_note: '<p>Live <strong>tracking</strong></p><script>x()</script>',
    });
    await waitFor(() => expect(view.location()).toBe('/ps/release-notes'));
  });

  it('checks the fields before sending, and puts the server’s answers on them', async () => {
    const mock = releaseNotesApi({
      [STATUS]: admin(),
      [PREVIEW]: json({ release_note: '<p>x</p>' }),
      'POST /v1/release-notes/': [
        apiError(409, 'VERSION_TAKEN', 'Another release note already has this version.', [
          { field: 'version', message: 'Another release note already has this version.' },
        ]),
        apiError(400, 'VALIDATION_ERROR', 'release_date: bad', [
          { field: 'release_date', message: 'Give a release date between 2000 and 2999.' },
        ]),
        apiError(403, 'PERMISSION_DENIED', 'No.'),
      ],
    });
    signIn();
    renderApp('/ps/release-notes/new');
    const user = userEvent.setup();
    const version = await screen.findByRole('textbox', { name: /^Version/ });
    await user.click(screen.getByRole('button', { name: 'Publish release note' }));
    expect(await screen.findByText('Enter the version.')).toBeVisible();
    expect(screen.getByText('Write the release note.')).toBeVisible();
    expect(mock.callsTo('POST /v1/release-notes/')).toHaveLength(0);

    await user.type(version, 'v1.7.4');
    await user.type(screen.getByRole('textbox', { name: /^Release note/ }), 'x');
    await user.click(screen.getByRole('button', { name: 'Publish release note' }));
    expect(await screen.findByText('Another release note already has this version.')).toBeVisible();
    expect(version).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Publish release note' }));
    expect(await screen.findByText('Give a release date between 2000 and 2999.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Publish release note' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only platform administrators can manage release notes.',
    );
  });

  it('edits a note: loads it into the form and saves the change', async () => {
    const mock = releaseNotesApi({
      [STATUS]: admin(),
      [NOTE]: json(older),
      [PREVIEW]: json({ release_note: older.release_note }),
      [`PATCH /v1/release-notes/${older.id}/`]: json({ ...older, version: 'v1.7.3-hotfix' }),
    });
    signIn();
    const view = renderApp(`/ps/release-notes/${older.id}`);
    const version = await screen.findByRole('textbox', { name: /^Version/ });
    expect(version).toHaveValue('v1.7.3');
    expect(screen.getByLabelText(/^Release date/)).toHaveValue('2026-01-01');
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(
      await within(preview).findByText('Container numbers are checked as you type.'),
    ).toBeVisible();

    const user = userEvent.setup();
    await user.clear(version);
    await user.type(version, 'v1.7.3-hotfix');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Release note v1.7.3-hotfix was saved.')).toBeVisible();
    expect(mock.callsTo(`PATCH /v1/release-notes/${older.id}/`)[0]?.body).toEqual({
      version: 'v1.7.3-hotfix',
      release_date: '2026-01-01',
      release_note: older.release_note,
    });
    await waitFor(() => expect(view.location()).toBe('/ps/release-notes'));
  });
});
