import fs from 'node:fs';
import path from 'node:path';

/** What the walk needs of a module: rolldown's ModuleInfo has these fields. */
export interface ModuleFacts {
  code: string | null;
  importedIds: readonly string[];
}

type Lookup = (id: string) => ModuleFacts | null;

const IMPORT_NAMED = /import\s*(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const EXPORT_FROM = /export\s*(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const EXPORT_STAR = /export\s*\*\s*from\s*["']([^"']+)["']/g;
const NON_BARREL_STATEMENT = /^(?!\s*(?:import\b|export\s*\{|export\s*\*|\/\/|\/\*|\*|$)).+/m;
const declares = (code: string, name: string) =>
  new RegExp(
    `export\\s+(?:declare\\s+)?(?:const|let|var|function\\*?|async\\s+function|class|enum|type|interface)\\s+${name}\\b|export\\s*\\{[^}]*\\b${name}\\b[^}]*\\}(?!\\s*from)`,
  ).test(code);

/**
 * An index that only re-exports (`@mantine/core`, `@mantine/hooks`, the icons, the contract):
 * every statement is an import or an export list. Reached through one, a module needs only the
 * names it imports, not all of the package.
 */
export function isBarrel(facts: ModuleFacts | null): boolean {
  return (
    facts?.code != null &&
    /(?:import\s*\{|export\s*\{[^}]*\}\s*from|export\s*\*\s*from)/.test(facts.code) &&
    !NON_BARREL_STATEMENT.test(facts.code)
  );
}

/** `{ A, B as C, type D }` → [['A','A'], ['B','C'], ['D','D']] (imported name, local name). */
function namesOf(list: string): [string, string][] {
  return list
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((part) => {
      const [imported, local] = part.split(/\s+as\s+/);
      return [imported!.trim(), (local ?? imported)!.trim()];
    });
}

/** The module id a specifier of `from` names, among the ids that module imports. */
function resolveSpecifier(from: string, spec: string, imported: readonly string[]): string | null {
  if (spec.startsWith('.')) {
    const target = path.resolve(path.dirname(from), spec);
    return imported.find((id) => id === target || id.startsWith(`${target}.`)) ?? null;
  }
  const marker = `${path.sep}node_modules${path.sep}${spec.split('/').join(path.sep)}${path.sep}`;
  const hits = imported.filter((id) => id.includes(marker));
  if (hits.length === 1) return hits[0]!;
  // A workspace package (`@portolan/contract`): its folder under node_modules is a link.
  const dir = packageDir(from, spec);
  const inside = dir ? imported.filter((id) => id.startsWith(dir + path.sep)) : [];
  return inside.length === 1 ? inside[0]! : null;
}

/** The real folder of package `spec` as seen from module `from`, or null. */
function packageDir(from: string, spec: string): string | null {
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(candidate)) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * The modules that `entries` need through static imports, where an import from a barrel counts
 * only the modules that declare the names imported (found by reading the barrel's own imports).
 * Rolldown's graph alone would count the whole barrel: every Mantine component would seem needed
 * by the sign-in page. An import this cannot read precisely is followed whole (more is needed, never
 * less).
 */
export function staticallyNeeded(entries: readonly string[], lookup: Lookup): Set<string> {
  const needed = new Set<string>();
  const barrelNames = new Map<string, Set<string>>();
  const stack: string[] = [...entries];

  /** The module that declares `name` as exported by barrel `barrel`, or null when unknown. */
  const declaring = (barrel: string, name: string, depth = 0): string | null => {
    const facts = lookup(barrel);
    if (!facts?.code || depth > 8) return null;
    const follow = (spec: string, imported: string) => {
      const id = resolveSpecifier(barrel, spec, facts.importedIds);
      if (!id) return null;
      if (imported === 'default' || !isBarrel(lookup(id))) return id;
      return declaring(id, imported, depth + 1);
    };
    for (const m of facts.code.matchAll(EXPORT_FROM)) {
      for (const [imported, exported] of namesOf(m[1]!))
        if (exported === name) return follow(m[2]!, imported);
    }
    for (const m of facts.code.matchAll(IMPORT_NAMED)) {
      for (const [imported, local] of namesOf(m[1]!))
        if (local === name) return follow(m[2]!, imported);
    }
    for (const m of facts.code.matchAll(EXPORT_STAR)) {
      const id = resolveSpecifier(barrel, m[1]!, facts.importedIds);
      const target = id ? lookup(id) : null;
      if (!id || !target?.code) continue;
      if (isBarrel(target)) {
        const found = declaring(id, name, depth + 1);
        if (found) return found;
      } else if (declares(target.code, name)) return id;
    }
    return null;
  };

  const followBarrel = (barrel: string, names: [string, string][] | null) => {
    const seen = barrelNames.get(barrel) ?? new Set<string>();
    barrelNames.set(barrel, seen);
    if (names === null) {
      stack.push(...(lookup(barrel)?.importedIds ?? []));
      return;
    }
    for (const [imported] of names) {
      if (seen.has(imported)) continue;
      seen.add(imported);
      const id = declaring(barrel, imported);
      if (id) stack.push(id);
      else stack.push(...(lookup(barrel)?.importedIds ?? []));
    }
  };

  while (stack.length > 0) {
    const id = stack.pop()!;
    if (needed.has(id)) continue;
    needed.add(id);
    const facts = lookup(id);
    if (!facts) continue;
    const viaNames = new Set<string>();
    for (const m of facts.code?.matchAll(IMPORT_NAMED) ?? []) {
      const target = resolveSpecifier(id, m[2]!, facts.importedIds);
      if (!target || !isBarrel(lookup(target))) continue;
      viaNames.add(target);
      followBarrel(target, namesOf(m[1]!));
    }
    for (const next of facts.importedIds) {
      if (viaNames.has(next)) continue;
      if (isBarrel(lookup(next))) followBarrel(next, null);
      else stack.push(next);
    }
  }
  // A barrel is itself empty code: it is part of the set only as a pass-through.
  for (const barrel of barrelNames.keys()) needed.add(barrel);
  return needed;
}
