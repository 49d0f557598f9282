// `npm test`: every test. Stage 1: Vitest (unit, API and web projects of the root config; with
// TEST_DATABASE_URL set the API project runs in full on PostgreSQL and its engine-parity files on
// PGlite, without it in full on PGlite). Full runs only: the typecheck and lint, so CI holds the
// code to them, run beside Vitest's API pass (their output is shown when they end). Stage 2: the
// browser tests (build the web app when stale, then Playwright in e2e/). Every stage always runs;
// the exit code is non-zero when any failed, and a summary of the stages is printed at the end.
//
//   npm test                      everything
//   npm test -- --unit            Vitest only        npm test -- --e2e   browser tests only
//   npm test -- <other args>      passed to Vitest (e.g. a file filter, -t "name", --project api)
import { binScript, E2E_DIR, ROOT } from './lib/paths.ts';
import { formatDuration, run, runCaptured } from './lib/proc.ts';
import { vitestFailures } from './lib/vitest-failures.ts';
import { ensureWebBuild } from './lib/web-build.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';

interface StageResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  note?: string;
}

const argv = process.argv.slice(2);
const unitOnly = argv.includes('--unit');
const e2eOnly = argv.includes('--e2e');
const vitestArgs = argv.filter((a) => a !== '--unit' && a !== '--e2e');

const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
const header = (text: string) => console.log(`\n${bold(`=== ${text} ===`)}\n`);

// Ctrl-C reaches the running stage (same process group); we only stop starting new ones.
let interrupted = false;
for (const s of ['SIGINT', 'SIGTERM'] as const) {
  process.on(s, () => {
    interrupted = true;
  });
}

async function stage(name: string, enabled: boolean, body: () => Promise<number | string>) {
  if (!enabled || interrupted) {
    results.push({ name, status: 'skipped', ms: 0, note: interrupted ? 'interrupted' : undefined });
    return;
  }
  header(name);
  const started = Date.now();
  let outcome: number | string;
  try {
    outcome = await body();
  } catch (error) {
    outcome = error instanceof Error ? error.message : String(error);
  }
  const ms = Date.now() - started;
  if (outcome === 0) {
    results.push({ name, status: 'passed', ms });
  } else {
    const note = typeof outcome === 'number' ? `exit code ${outcome}` : outcome;
    results.push({ name, status: 'failed', ms, note });
  }
}

const results: StageResult[] = [];

const fullRun = !unitOnly && !e2eOnly && vitestArgs.length === 0;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The static checks (full runs only) start with Vitest's API pass and run beside it, their output
 * kept and shown when they end: the pass's own waits on PostgreSQL leave room for tsc and eslint,
 * instead of them running alone before every test.
 */
interface Checked {
  outcome: 0 | string;
  output: string;
  ms: number;
}
let staticChecks: Promise<Checked> | undefined;
function startStaticChecks(): Promise<Checked> {
  staticChecks ??= (async () => {
    const started = Date.now();
    const typecheck = await runCaptured(npm, ['run', '--silent', 'typecheck'], { cwd: ROOT });
    if (typecheck.code !== 0) {
      const outcome = `typecheck failed (exit code ${typecheck.code})`;
      return { outcome, output: typecheck.output, ms: Date.now() - started };
    }
    const lint = await runCaptured(npm, ['run', '--silent', 'lint'], { cwd: ROOT });
    const outcome = lint.code === 0 ? 0 : `lint failed (exit code ${lint.code})`;
    return { outcome, output: typecheck.output + lint.output, ms: Date.now() - started };
  })();
  return staticChecks;
}

const postgresSkipped = !process.env.TEST_DATABASE_URL;
const POSTGRES_SKIPPED =
  'API tests on PostgreSQL skipped: TEST_DATABASE_URL is not set. To run them too: ' +
  'TEST_DATABASE_URL=postgres://user:password@localhost:5432/postgres npm test';

// Vitest also writes a JSON report (unless the caller chose reporters), read for the summary.
const reportDir = mkdtempSync(path.join(tmpdir(), 'portolan-vitest-'));
const ownReporters = vitestArgs.some((a) => a.startsWith('--reporter'));
const reportArgs = (name: string) =>
  ownReporters
    ? []
    : [
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${path.join(reportDir, `${name}.json`)}`,
      ];

/**
 * A full run in two passes. The web and contract tests (jsdom, CPU only) on every core: on the
 * 2-core CI machine, 117 s instead of 175 s. Then the API tests, also on every core, with the
 * static checks of a full run beside them: since PostgreSQL runs the full suite and PGlite only
 * its parity files, two files at once took 455 s against 600 s for one at a time (2026-11-27,
 * fresh clone, static checks beside both; decision 0016). Earlier, with both engines running
 * every file, two at once had been the slower (1,100 s against 937 s).
 */
const VITEST_PASSES: { name: string; args: string[]; alongside?: () => void }[] =
  vitestArgs.length > 0
    ? [{ name: 'vitest', args: vitestArgs }]
    : [
        {
          name: 'web',
          args: [
            '--project=contract',
            '--project=sdk',
            '--project=web',
            `--maxWorkers=${availableParallelism()}`,
          ],
        },
        {
          name: 'api',
          // One file more than cores: with one a core, the machine was 1.35 cores busy (files
          // wait on PostgreSQL, on child processes, on timers); 228 s against 258 s (2026-11-27).
          args: ['--project=@portolan/api', `--maxWorkers=${availableParallelism() + 1}`],
          alongside: () => void (fullRun && startStaticChecks()),
        },
      ];

const failedTests: string[] = [];
await stage('Vitest: unit, API and web tests', !e2eOnly, async () => {
  if (postgresSkipped) console.log(`${POSTGRES_SKIPPED}\n`);
  let status = 0;
  for (const pass of VITEST_PASSES) {
    if (interrupted) break;
    const vitest = [binScript('vitest', 'vitest'), 'run', ...reportArgs(pass.name), ...pass.args];
    pass.alongside?.();
    const code = await run(process.execPath, vitest, { cwd: ROOT });
    if (code !== 0) status = code;
    failedTests.push(...vitestFailures(path.join(reportDir, `${pass.name}.json`), ROOT));
  }
  rmSync(reportDir, { recursive: true, force: true });
  return status;
});

await stage('Static checks: typecheck and lint (beside the API tests)', fullRun, async () => {
  const checked = await startStaticChecks();
  if (checked.output.trim()) console.log(checked.output.trimEnd());
  console.log(`static checks: ${formatDuration(checked.ms)}`);
  return checked.outcome;
});

await stage('Browser tests (Playwright, Chromium)', !unitOnly, async () => {
  if (!(await ensureWebBuild((line) => console.log(line)))) return 'the web build failed';
  return run(process.execPath, [binScript('@playwright/test', 'playwright', E2E_DIR), 'test'], {
    cwd: E2E_DIR,
  });
});

header('Summary');
const icon = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as const;
for (const r of results) {
  const time = r.status === 'skipped' ? '' : ` (${formatDuration(r.ms)})`;
  console.log(`  ${icon[r.status]}  ${r.name}${time}${r.note ? ` — ${r.note}` : ''}`);
}
if (failedTests.length > 0) {
  console.log(`\n  Failed Vitest tests (${failedTests.length}):`);
  for (const line of failedTests) console.log(`    ✗ ${line}`);
}
if (postgresSkipped && !e2eOnly) console.log(`\n  ${POSTGRES_SKIPPED}`);
const failed = results.some((r) => r.status === 'failed') || interrupted;
console.log(failed ? '\nSome tests failed.' : '\nAll tests passed.');
process.exitCode = failed ? 1 : 0;
