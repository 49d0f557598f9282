// The marketplace-seller credential checker the app under test asks (CREDENTIAL_CHECK_URL): the
// local fake of apps/api/test/support/credential-fake.ts, started by app-server.ts in its own
// process before the server, on a free loopback port it leaves in the run folder for the tests.
// Every workspace is valid until a test sets it otherwise, so no other test sees the alert.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// Types only: app-server.ts imports this file outside the test runner.
import type { APIRequestContext } from '@playwright/test';
import {
  startCredentialFake,
  type CredentialFake,
} from '../../apps/api/test/support/credential-fake.ts';
import { currentRun, type RunInfo } from './run.ts';

const addressFile = (run: RunInfo) => path.join(run.dir, 'credential-fake.url');

/** Starts the fake (app-server.ts) and leaves its base URL in the run folder. */
export async function startRunCredentialFake(run: RunInfo): Promise<CredentialFake> {
  const fake = await startCredentialFake();
  writeFileSync(addressFile(run), fake.baseUrl);
  return fake;
}

/**
 * Sets what the checker answers for a workspace. The server keeps an answer for a minute, so set
 * it before the workspace's pages are first opened.
 */
export async function setCredentialStatus(
  request: APIRequestContext,
  clientId: string,
  status: { is_valid: boolean; message?: string | null },
): Promise<void> {
  const base = readFileSync(addressFile(currentRun()), 'utf8').trim();
  const res = await request.post(`${base}/set`, { data: { client_id: clientId, ...status } });
  if (res.status() !== 204) {
    throw new Error(`the credential fake refused ${clientId}: ${res.status()} ${await res.text()}`);
  }
}
