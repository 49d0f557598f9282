// `npm run typecheck`: every TypeScript project of the monorepo, checked by TypeScript 7's native
// compiler (`typescript-native`, decision 0020): the same language and settings as the
// `typescript` 6 package the tools' JavaScript API uses (typescript-eslint, editors), about a
// third of the CPU (38 against 81 CPU-seconds for the seven projects, 2026-11-27). One project
// after another: the native checker already uses every core.
import { binScript, ROOT } from './lib/paths.ts';
import { run } from './lib/proc.ts';

const PROJECTS = [
  'packages/contract',
  'packages/sdk',
  'apps/api',
  'apps/web',
  'e2e',
  'scripts',
  'examples/module-app',
];

const tsc = binScript('typescript-native', 'tsc');
let failed = 0;
for (const project of PROJECTS) {
  const code = await run(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: ROOT });
  if (code !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
