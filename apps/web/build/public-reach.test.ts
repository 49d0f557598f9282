import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBarrel, staticallyNeeded, type ModuleFacts } from './public-reach';

// A small module graph as rolldown describes it: ids are absolute paths under node_modules.
const nm = (p: string) => path.join('/repo/node_modules', p);
const app = (p: string) => path.join('/repo/src', p);
const graph: Record<string, ModuleFacts> = {
  [app('login.tsx')]: {
    code: "import { Button } from '@ui/core';\nimport { IconX } from 'icons';\nimport { helper } from './helper';",
    importedIds: [nm('@ui/core/index.mjs'), nm('icons/index.mjs'), app('helper.ts')],
  },
  [app('helper.ts')]: { code: 'export const helper = 1;', importedIds: [] },
  [nm('@ui/core/index.mjs')]: {
    code: 'import { Button } from "./Button.mjs";\nimport { Menu } from "./Menu.mjs";\nexport { Button, Menu };',
    importedIds: [nm('@ui/core/Button.mjs'), nm('@ui/core/Menu.mjs')],
  },
  [nm('@ui/core/Button.mjs')]: {
    code: 'import { Loader } from "./Loader.mjs";\nexport const Button = () => Loader;',
    importedIds: [nm('@ui/core/Loader.mjs')],
  },
  [nm('@ui/core/Loader.mjs')]: { code: 'export const Loader = 1;', importedIds: [] },
  [nm('@ui/core/Menu.mjs')]: {
    code: 'import "floating";\nexport const Menu = 2;',
    importedIds: [nm('floating/index.mjs')],
  },
  [nm('floating/index.mjs')]: { code: 'export const float = 3;', importedIds: [] },
  [nm('icons/index.mjs')]: {
    code: "export { default as IconX } from './IconX.mjs';\nexport { default as IconY } from './IconY.mjs';",
    importedIds: [nm('icons/IconX.mjs'), nm('icons/IconY.mjs')],
  },
  [nm('icons/IconX.mjs')]: { code: 'export default 1;', importedIds: [] },
  [nm('icons/IconY.mjs')]: { code: 'export default 2;', importedIds: [] },
};
const lookup = (id: string) => graph[id] ?? null;

describe('what the public first screens need', () => {
  it('tells an index that only re-exports from a module with code', () => {
    expect(isBarrel(graph[nm('@ui/core/index.mjs')]!)).toBe(true);
    expect(isBarrel(graph[nm('icons/index.mjs')]!)).toBe(true);
    expect(isBarrel(graph[nm('@ui/core/Button.mjs')]!)).toBe(false);
  });

  it('follows only the names imported from an index, and their own imports', () => {
    const needed = staticallyNeeded([app('login.tsx')], lookup);
    expect(needed).toContain(app('helper.ts'));
    expect(needed).toContain(nm('@ui/core/Button.mjs'));
    expect(needed).toContain(nm('@ui/core/Loader.mjs'));
    expect(needed).toContain(nm('icons/IconX.mjs'));
    expect(needed).not.toContain(nm('@ui/core/Menu.mjs'));
    expect(needed).not.toContain(nm('floating/index.mjs'));
    expect(needed).not.toContain(nm('icons/IconY.mjs'));
  });

  it('follows the whole index when a name cannot be found in it', () => {
    const graph2 = {
      ...graph,
      [app('other.tsx')]: {
        code: "import { Unknown } from '@ui/core';",
        importedIds: [nm('@ui/core/index.mjs')],
      },
    };
    const needed = staticallyNeeded([app('other.tsx')], (id) => graph2[id] ?? null);
    expect(needed).toContain(nm('@ui/core/Menu.mjs'));
    expect(needed).toContain(nm('floating/index.mjs'));
  });
});
