// The walk behind the console's start chunks (scripts/startChunks.ts): what it finds goes into the start's one
// script; a module it finds that the start does not use is fetched at start for nothing, and a barrel's every
// declaration (contract/index.ts names the whole catalogue) must not come along because one name was asked of it.
import { describe, expect, it } from 'vitest';
import { staticReach, type ModuleGraph } from './startChunks';

/** A module graph as rolldown's chunking sees it: each module's code and its static imports, in order. */
function graph(modules: Record<string, [code: string, imports: string[]]>): ModuleGraph {
  return { getModuleInfo: (id) => (modules[id] ? { code: modules[id][0], importedIds: modules[id][1] } : null) };
}

const FREE = /[\\/]contract[\\/]/; // free of side effects, as vite.config.ts says of contract/

describe('the start chunks walk', () => {
  const modules: Record<string, [code: string, imports: string[]]> = {
    '/src/root.ts': [
      "import { a } from '../contract/index';\nimport { n } from './effect';\nexport const root = a + n;",
      ['/contract/index.ts', '/src/effect.ts'],
    ],
    '/contract/index.ts': [
      "export * from './x';\nexport { b } from './y';\nexport * as ns from './ns';",
      ['/contract/x.ts', '/contract/y.ts', '/contract/ns.ts'],
    ],
    '/contract/x.ts': ["import { z } from './z';\nexport const a = z + 1;", ['/contract/z.ts']],
    '/contract/y.ts': ["import { far } from './far';\nexport const b = far;", ['/contract/far.ts']],
    '/contract/z.ts': ['export const z = 1;', []],
    '/contract/far.ts': ['export const far = 2;', []],
    '/contract/ns.ts': ['export const inNs = 3;', []],
    // a module with side effects: every import it names counts
    '/src/effect.ts': [
      "import { unused } from '../contract/w';\nimport { ns } from '../contract/index';\nexport const n = 1;\nconsole.log('x');",
      ['/contract/w.ts', '/contract/index.ts'],
    ],
    '/contract/w.ts': ['export const unused = 4;', []],
  };

  it('follows a barrel only to the declarations asked of it, and takes every import of a module with side effects', () => {
    const reach = staticReach(graph(modules), ['/src/root.ts'], FREE);
    expect([...reach].sort()).toEqual(['/contract/ns.ts', '/contract/w.ts', '/contract/x.ts', '/contract/z.ts', '/src/effect.ts', '/src/root.ts']);
  });

  it('asks a named re-export of its source, and leaves a namespace re-export out until its name is asked', () => {
    const r: [string, string[]] = ["import { b } from './contract/index';\nexport const r = b;", ['/contract/index.ts']];
    const reach = staticReach(graph({ ...modules, '/r.ts': r }), ['/r.ts'], FREE);
    expect([...reach].sort()).toEqual(['/contract/far.ts', '/contract/y.ts', '/r.ts']);
  });

  it("takes all of a CommonJS module's requires (no import statements to read)", () => {
    const reach = staticReach(
      graph({
        '/node_modules/react/index.js': ["module.exports = require('./cjs/react.js');", ['/node_modules/react/cjs/react.js']],
        '/node_modules/react/cjs/react.js': ['exports.x = 1;', []],
      }),
      ['/node_modules/react/index.js'],
      FREE,
    );
    expect([...reach].sort()).toEqual(['/node_modules/react/cjs/react.js', '/node_modules/react/index.js']);
  });
});
