import { describe, expect, it } from 'vitest';
import { releaseNoteCreateSchema, releaseNoteUpdateSchema } from './release-notes-schemas.ts';
import { releaseDateText } from './release-notes.ts';

describe('release notes', () => {
  it('shows a release date as MM/DD/YYYY from its text (never through Date)', () => {
    expect(releaseDateText('2026-01-01')).toBe('01/01/2026');
    expect(releaseDateText('2026-11-24')).toBe('11/24/2026');
    expect(releaseDateText('not a date')).toBe('not a date');
  });

  it('validates a new note and a change', () => {
    const ok = { version: ' v1.7.4 ', release_date: '2026-02-28', release_note: '<p>x</p>' };
    expect(releaseNoteCreateSchema.parse(ok).version).toBe('v1.7.4');
    for (const bad of [
      { ...ok, release_date: '2026-02-29' },
      { ...ok, release_date: '1999-12-31' },
      { ...ok, version: 'x'.repeat(33) },
      { ...ok, release_note: ' ' },
      { ...ok, release_note: 'a\u0000' },
    ]) {
      expect(releaseNoteCreateSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(releaseNoteCreateSchema.safeParse({ ...ok, release_date: '2028-02-29' }).success).toBe(
      true,
    );
    expect(releaseNoteUpdateSchema.safeParse({}).success).toBe(false);
    expect(releaseNoteUpdateSchema.parse({ release_date: '2026-03-01' })).toEqual({
      release_date: '2026-03-01',
    });
  });
});
