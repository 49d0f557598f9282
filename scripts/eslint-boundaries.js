// The import boundaries of ARCHITECTURE.md as one ESLint rule, so a change that crosses one fails
// `npm run lint` instead of waiting for a reviewer:
// - the contract imports nothing of the apps; the web app never imports the API;
// - a web feature never imports another feature (app/ composes them);
// - the API's db/ and lib/ never import modules/ (modules build on them, not the reverse);
// - an API module imports another module only through its face, modules/<name>/index.ts.
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
  const api = 'apps/api/src/';
  const fromLayer = segment(from, api);
  if ((fromLayer === 'db' || fromLayer === 'lib') && to.startsWith(`${api}modules/`)) {
    return `${fromLayer}/ never imports modules/`;
  }
  const modules = `${api}modules/`;
  const fromModule = segment(from, modules);
  const toModule = segment(to, modules);
  if (
    fromModule &&
    toModule &&
    fromModule !== toModule &&
    to !== `${modules}${toModule}/index.ts`
  ) {
    return `module "${fromModule}" reaches into module "${toModule}": import its face, modules/${toModule}/index.ts`;
  }
  return null;
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
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { imports: rule } };
