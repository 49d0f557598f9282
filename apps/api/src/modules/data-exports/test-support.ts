// Helpers of this module's tests: run the job by hand, download and open an archive.
import { strFromU8, unzipSync } from 'fflate';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { exportDepsFor, runDataExports } from './job.ts';

/** One run of the job, as an instance's worker would do it. */
export const runJob = (t: TestApp) => runDataExports(t.ctx, exportDepsFor(t.ctx.config));

/** The files of a zip answer, text decoded (uploads stay bytes under `bytes`). */
export function openArchive(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  const files = unzipSync(new Uint8Array(res.rawPayload));
  const text = (name: string) => {
    const file = files[name];
    if (!file) throw new Error(`no ${name} in the archive: ${Object.keys(files).join(', ')}`);
    return strFromU8(file);
  };
  return {
    names: Object.keys(files).sort(),
    bytes: (name: string) => files[name],
    text,
    json: <T = unknown>(name: string) => JSON.parse(text(name)) as T,
    lines: <T = unknown>(name: string) =>
      text(name)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as T),
    /** Every file as text, joined: to look for what must never be there. */
    all: () =>
      Object.entries(files)
        .map(([name, bytes]) => `${name}\n${strFromU8(bytes, true)}`)
        .join('\n'),
  };
}

/** The path of the download link in an export's ready e-mail. */
export function linkIn(text: string): string {
  const match = /https?:\/\/[^\s]+(\/v1\/data-exports\/download\/[A-Za-z0-9_-]{43}\/)/.exec(text);
  if (!match) throw new Error(`no download link in: ${text}`);
  return match[1]!;
}
