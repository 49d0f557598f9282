// Figure 5 of issue 12: sign-ins per second under load, against raw argon2id verifications per
// second at our parameters, the same concurrency and the same number of processes.
//
// Each request signs in one of the seeded accounts in turn (each wrk thread its own share of
// them), so that no account has more attempts in flight than its lockout allows, and carries its
// own X-Forwarded-For address: the server runs with TRUST_PROXY=true, as behind a load balancer,
// so the per-IP limit (50 per 15 minutes) counts each address, which sends one request.
import { argon2VerificationsPerSecond } from './argon2.ts';
import { mark, milliseconds, percent, perSecond, requestsPerSecond, type Row } from './report.ts';
import { runWrk, type LoadShape } from './wrk.ts';

export const SIGN_IN_TARGET = 0.9;
export const SIGN_IN_PATH = '/v1/rest-auth/app/login/';

/** The wrk script: POST one JSON sign-in per request, accounts and addresses in turn. */
export function signInScript(accounts: { emails: string[]; password: string }, threads: number) {
  const perThread = Math.floor(accounts.emails.length / threads);
  if (perThread < 1) throw new Error('fewer sign-in accounts than wrk threads');
  const lua = (s: string) => JSON.stringify(s); // a JSON string is a Lua string literal here
  return `
local emails = { ${accounts.emails.map(lua).join(', ')} }
local password = ${lua(accounts.password)}
local per_thread = ${perThread}
local threads = 0
local counter = 0

function setup(thread)
  thread:set("first", threads * per_thread)
  threads = threads + 1
end

function request()
  counter = counter + 1
  local email = emails[first + (counter % per_thread) + 1]
  local address = string.format("10.%d.%d.%d", first % 256, math.floor(counter / 256) % 256, counter % 256)
  return wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["X-Forwarded-For"] = address,
  }, '{"email":"' .. email .. '","password":"' .. password .. '"}')
end
`;
}

export async function measureSignIn(options: {
  base: string;
  accounts: { emails: string[]; password: string };
  shape: LoadShape;
  /** Processes serving requests; null: no argon2id comparison (information only). */
  processes: number | null;
  durationMs: number;
}): Promise<Row> {
  const lua = signInScript(options.accounts, options.shape.threads);
  const url = `${options.base}${SIGN_IN_PATH}`;
  const load = await runWrk(url, options.shape, { lua });
  const ours = `${requestsPerSecond(load.requestsPerSecond)} p50 ${milliseconds(load.p50Ms)}${load.failures ? ` (failed: ${load.failureKinds}!)` : ''}`;
  if (options.processes === null) {
    console.log(`  ${`POST ${SIGN_IN_PATH}`.padEnd(48)} ${ours}`);
    return {
      figure: `POST ${SIGN_IN_PATH}`,
      value: requestsPerSecond(load.requestsPerSecond),
      ratio: '',
      target: '',
      met: null,
    };
  }
  const raw = await argon2VerificationsPerSecond({
    processes: options.processes,
    concurrency: options.shape.connections,
    durationMs: options.durationMs,
  });
  const ratio = load.requestsPerSecond / raw;
  const met = !load.failures && ratio >= SIGN_IN_TARGET;
  console.log(
    `  ${`POST ${SIGN_IN_PATH}`.padEnd(48)} ${ours} | raw argon2id ${perSecond(raw)} (${options.processes} process(es), ${options.shape.connections} at once) → ${percent(ratio)} (target ≥ ${percent(SIGN_IN_TARGET)}) ${mark(met)}`,
  );
  return {
    figure: `POST ${SIGN_IN_PATH} vs raw argon2id`,
    value: requestsPerSecond(load.requestsPerSecond),
    ratio: percent(ratio),
    target: `≥ ${percent(SIGN_IN_TARGET)}`,
    met,
  };
}
