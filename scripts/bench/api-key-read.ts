// Issue 21's figure: a tenant read with an API key against the same read with a session token.
// The key costs a SHA-256 and, at most twice a second, one indexed query; the session its JWT
// and the session cache; both then the same tenant decision. Target: the key at 0.9 or more.
import { mark, percent, requestsPerSecond, type Row } from './report.ts';
import { runWrk, type LoadShape } from './wrk.ts';

export const API_KEY_TARGET = 0.9;

/** The first organization of the signed-in user, and a new key of it that may read its balance. */
async function keyOfFirstOrganization(base: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const list = await fetch(`${base}/v1/me/organizations/and/clients/?limit=1`, { headers });
  const orgId = ((await list.json()) as { results: { organization: { id: string } }[] }).results[0]!
    .organization.id;
  const res = await fetch(`${base}/v1/organizations/${orgId}/api-keys/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'bench', permissions: ['organization.billing'] }),
  });
  if (res.status !== 201)
    throw new Error(`creating a key answered ${res.status}: ${await res.text()}`);
  return { orgId, key: ((await res.json()) as { key: string }).key };
}

export async function compareKeyToSession(
  base: string,
  token: string,
  shape: LoadShape,
  judged: boolean,
): Promise<Row> {
  const { orgId, key } = await keyOfFirstOrganization(base, token);
  // A light read (one statement after the tenant decision): what differs is the caller's cost.
  const url = `${base}/v1/organizations/${orgId}/balance/`;
  const run = (bearer: string, s = shape) =>
    runWrk(url, s, { headers: { Authorization: `Bearer ${bearer}` } });
  const warmUp = { ...shape, duration: '1s' };
  await run(token, warmUp);
  const session = await run(token);
  await run(key, warmUp);
  const keyed = await run(key);
  const ratio = keyed.requestsPerSecond / session.requestsPerSecond;
  const met = judged ? !keyed.failures && !session.failures && ratio >= API_KEY_TARGET : null;
  console.log(
    `  GET /v1/organizations/{id}/balance/ with an API key ${requestsPerSecond(keyed.requestsPerSecond)}` +
      ` | with a session ${requestsPerSecond(session.requestsPerSecond)} → ${percent(ratio)}` +
      (judged ? ` (target ≥ ${percent(API_KEY_TARGET)}) ${mark(met)}` : '') +
      (keyed.failures || session.failures ? ' (failures!)' : ''),
  );
  return {
    figure: 'a tenant read with an API key vs a session',
    value: requestsPerSecond(keyed.requestsPerSecond),
    ratio: percent(ratio),
    target: judged ? `≥ ${percent(API_KEY_TARGET)}` : '',
    met,
  };
}
