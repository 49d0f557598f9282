// The import boundaries of ARCHITECTURE.md as one ESLint rule, so a change that crosses one fails
// `npm run lint` instead of waiting for a reviewer:
// - the contract imports nothing of the apps; the web app never imports the API;
// - a web feature never imports another feature nor app/ (app/ composes them); lib/ never
//   imports a feature;
// - the API's db/ and lib/ never import modules/ (modules build on them, not the reverse);
// - an API module, plugins/, seed/, context.ts and every other file of apps/api/src import a module
//   only through its face, modules/<name>/index.ts;
// - `module-cycles`: the import graph between API modules has no cycle.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');

const segment = (file, prefix) =>
  file.startsWith(prefix) ? file.slice(prefix.length).split('/')[0] : undefined;

/** Why `from` may not import `to` (both repository-relative), or null when it may. */
export function boundaryProblem(from, to) {
  if (from.startsWith('packages/contract/') && to.startsWith('apps/')) {
    return 'the contract imports nothing of the apps';
  }
  if (from.startsWith('apps/web/') && to.startsWith('apps/api/')) {
    return 'the web app never imports the API; share through packages/contract';
  }
  const features = 'apps/web/src/features/';
  const fromFeature = segment(from, features);
  const toFeature = segment(to, features);
  if (fromFeature && toFeature && fromFeature !== toFeature) {
    return `feature "${fromFeature}" imports feature "${toFeature}": compose them in app/, or move what both need to lib/`;
  }
  const web = 'apps/web/src/';
  if (fromFeature && to.startsWith(`${web}app/`)) {
    return `feature "${fromFeature}" imports app/: app/ composes the features, not the reverse; move what both need to lib/`;
  }
  if (from.startsWith(`${web}lib/`) && toFeature) {
    return `lib/ imports feature "${toFeature}": lib/ is below the features`;
  }
  const api = 'apps/api/src/';
  const fromLayer = segment(from, api);
  if ((fromLayer === 'db' || fromLayer === 'lib') && to.startsWith(`${api}modules/`)) {
    return `${fromLayer}/ never imports modules/`;
  }
  const modules = `${api}modules/`;
  const fromModule = segment(from, modules);
  const toModule = segment(to, modules);
  if (
    from.startsWith(api) &&
    toModule &&
    fromModule !== toModule &&
    to !== `${modules}${toModule}/index.ts`
  ) {
    const who = fromModule ? `module "${fromModule}"` : from.slice(api.length);
    return `${who} reaches into module "${toModule}": import its face, modules/${toModule}/index.ts`;
  }
  return null;
}

const MODULES_DIR = path.join(ROOT, 'apps/api/src/modules');
const IMPORT_SOURCE =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g;
const isTest = (file) => /\.test\.tsx?$/.test(file);

/** The modules each module imports (its files but tests), read from disk once per lint run. */
let moduleGraph = null;
export function readModuleGraph() {
  if (moduleGraph) return moduleGraph;
  moduleGraph = new Map();
  for (const name of fs.readdirSync(MODULES_DIR)) {
    const dir = path.join(MODULES_DIR, name);
    if (!fs.statSync(dir).isDirectory()) continue;
    const edges = new Set();
    for (const entry of fs.readdirSync(dir, { recursive: true })) {
      const file = path.join(dir, String(entry));
      if (!/\.tsx?$/.test(file) || isTest(file)) continue;
      for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT_SOURCE)) {
        const source = m[1] ?? m[2];
        if (!source?.startsWith('.')) continue;
        const to = segment(rel(path.resolve(path.dirname(file), source)), 'apps/api/src/modules/');
        if (to && to !== name) edges.add(to);
      }
    }
    moduleGraph.set(name, edges);
  }
  return moduleGraph;
}

/** A path of modules from `start` back to `goal` (both included), or null when there is none. */
export function cycleThrough(graph, start, goal) {
  const seen = new Set();
  const walk = (node, trail) => {
    if (node === goal) return trail;
    if (seen.has(node)) return null;
    seen.add(node);
    for (const next of graph.get(node) ?? []) {
      const found = walk(next, [...trail, next]);
      if (found) return found;
    }
    return null;
  };
  return walk(start, [start]);
}

/** The visitors of every import and re-export with a source, each handed to `check`. */
function importVisitors(check) {
  const fromSource = (node) => node.source && check(node.source, node.source.value);
  return {
    ImportDeclaration: fromSource,
    ExportNamedDeclaration: fromSource,
    ExportAllDeclaration: fromSource,
    ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
  };
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'The import boundaries of ARCHITECTURE.md' },
    schema: [],
    messages: { crossed: 'Import boundary: {{why}}.' },
  },
  create(context) {
    const from = rel(context.filename);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = rel(path.resolve(path.dirname(context.filename), source));
      const why = boundaryProblem(from, to);
      if (why) context.report({ node, messageId: 'crossed', data: { why } });
    };
    return importVisitors(check);
  },
};

const cycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No cycle in the import graph between API modules' },
    schema: [],
    messages: {
      cycle:
        'Module cycle: {{path}}. Move what both need below them (modules/access, lib/) or invert the call.',
    },
  },
  create(context) {
    const from = rel(context.filename);
    const modules = 'apps/api/src/modules/';
    const fromModule = segment(from, modules);
    if (!fromModule || isTest(from)) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const toModule = segment(rel(path.resolve(path.dirname(context.filename), source)), modules);
      if (!toModule || toModule === fromModule) return;
      const back = cycleThrough(readModuleGraph(), toModule, fromModule);
      if (back) {
        context.report({
          node,
          messageId: 'cycle',
          data: { path: [fromModule, ...back].join(' → ') },
        });
      }
    };
    return importVisitors(check);
  },
};

export default { rules: { imports: rule, 'module-cycles': cycles } };
