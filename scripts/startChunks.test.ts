// The walk behind the console's start chunks (scripts/startChunks.ts): what it finds goes into the start's one
// script; a module it finds that the start does not use is fetched at start for nothing, and a barrel's every
// declaration (contract/index.ts names the whole catalogue) must not come along because one name was asked of it.
import { describe, expect, it } from 'vitest';
import { LAZY_HOTKEYS_DIALOG_CODE, lazyHotkeysDialog, START_LATER, startChunksCheck, staticReach, topLevelRequests, type ModuleGraph } from './startChunks';

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

describe("the start's check", () => {
  type Chunk = {
    type: 'chunk';
    fileName: string;
    name: string;
    isEntry: boolean;
    imports: string[];
    dynamicImports: string[];
    modules: Record<string, unknown>;
  };
  const chunk = (fileName: string, name: string, modules: string[], imports: string[] = [], dynamicImports: string[] = [], isEntry = false): Chunk => ({
    type: 'chunk',
    fileName,
    name,
    isEntry,
    imports,
    dynamicImports,
    modules: Object.fromEntries(modules.map((m) => [m, {}])),
  });
  const LATER = [/[\\/]recharts[\\/]/, /[\\/]src[\\/]app[\\/]SettingsDrawer\./];
  const check = (chunks: Chunk[], code: Record<string, string> = {}) => {
    const errors: string[] = [];
    const plugin = startChunksCheck(LATER);
    type Context = { error(m: string): never; getModuleInfo(id: string): { code: string | null } | null };
    const generate = plugin.generateBundle as unknown as (this: Context, o: unknown, b: Record<string, Chunk>) => void;
    try {
      generate.call(
        {
          error: (m: string) => {
            errors.push(m);
            throw new Error(m);
          },
          getModuleInfo: (id: string) => ({ code: code[id] ?? null }),
        },
        {},
        Object.fromEntries(chunks.map((c) => [c.fileName, c])),
      );
    } catch {
      // the build stops at the first error
    }
    return errors;
  };
  const entry = chunk('index.js', 'index', ['/src/main.tsx'], [], ['console.js', 'base.js', 'DashboardScreen.js', 'later.js'], true);

  it('passes when what loads later is only in chunks the start imports dynamically', () => {
    const start = [
      entry,
      chunk('console.js', 'console', ['/src/app/App.tsx', '/src/app/Shell.tsx'], ['base.js'], ['later.js']),
      chunk('base.js', 'base', ['/node_modules/react-dom/index.js']),
      chunk('DashboardScreen.js', 'DashboardScreen', ['/src/screens/general/DashboardScreen.tsx'], ['console.js'], ['charts.js']),
      chunk('later.js', 'SettingsDrawer', ['/src/app/SettingsDrawer.tsx']),
      chunk('charts.js', 'DashboardCharts', ['/node_modules/recharts/es6/index.js']),
    ];
    expect(check(start)).toEqual([]);
  });

  it("fails the build when such a module is in the start's chunks, or in a chunk they import statically", () => {
    expect(
      check([
        entry,
        chunk('console.js', 'console', ['/src/app/App.tsx', '/src/app/SettingsDrawer.tsx'], ['base.js']),
        chunk('base.js', 'base', ['/node_modules/react-dom/index.js']),
      ]),
    ).toEqual([expect.stringContaining('/src/app/SettingsDrawer.tsx is in the start')]);
    expect(
      check([
        entry,
        chunk('console.js', 'console', ['/src/app/App.tsx'], ['base.js']),
        chunk('base.js', 'base', ['/node_modules/react-dom/index.js']),
        chunk('DashboardScreen.js', 'DashboardScreen', ['/src/screens/general/DashboardScreen.tsx'], ['console.js', 'shared.js']),
        chunk('shared.js', 'shared', ['/node_modules/recharts/es6/index.js']),
      ]),
    ).toEqual([expect.stringContaining('recharts/es6/index.js is in the start')]);
  });

  it('fails the build when a module of the start asks for something over the network as it is evaluated, not the entry', () => {
    const chunks = [entry, chunk('console.js', 'console', ['/src/app/App.tsx'], ['base.js']), chunk('base.js', 'base', ['/node_modules/react-dom/index.js'])];
    const main = "void import('./app/App');";
    expect(check(chunks, { '/src/main.tsx': main, '/src/app/App.tsx': 'setTimeout(() => void SCREENS.dashboard.preload(), 0);' })).toEqual([]);
    expect(check(chunks, { '/src/main.tsx': main, '/src/app/App.tsx': 'for (const k of keys) void SCREENS[k].preload();' })).toEqual([
      expect.stringContaining("/src/app/App.tsx (the start's chunk console.js) asks for something as it is evaluated (.preload() at line 1)"),
    ]);
  });
});

describe('what a module asks for over the network as it is evaluated (topLevelRequests)', () => {
  it("finds import(), fetch, .preload() and the requests' constructors at the top level, in blocks and loops too", () => {
    const code = [
      "import { SCREENS } from './screens';",
      "const icons = import('./icons');",
      "for (const k of ['dashboard']) void SCREENS[k].preload().catch(() => undefined);",
      "if (window.x) { fetch('/api/health'); }",
      "const socket = new WebSocket('ws://x');",
      "export const ready = Promise.all([window.fetch('/a'), navigator.sendBeacon('/b')]);",
    ].join('\n');
    expect(topLevelRequests('/src/app/App.tsx', code)).toEqual([
      'import() at line 2',
      '.preload() at line 3',
      'fetch() at line 4',
      'new WebSocket() at line 5',
      '.fetch() at line 6',
      '.sendBeacon() at line 6',
    ]);
  });
  it('leaves what runs later alone: functions, arrows, callbacks and methods', () => {
    const code = [
      "export const load = () => import('./later');",
      'export function preloadAll() { for (const s of screens) void s.preload(); }',
      'setTimeout(() => void SCREENS.dashboard.preload(), 0);',
      "void ready.then(() => fetch('/api/x'));",
      "class Probe { socket = new WebSocket('ws://x'); open() { return fetch('/y'); } }",
      'const preload = 1;',
    ].join('\n');
    expect(topLevelRequests('/src/app/App.tsx', code)).toEqual([]);
  });
});

describe('what the start leaves for later (START_LATER, the list vite.config.ts builds with)', () => {
  const later = (id: string) => START_LATER.some((r) => r.test(id));
  it('keeps i18next and the zh-CN dictionaries out of an English start (issue 48: src/i18n/engine.ts)', () => {
    for (const id of [
      '/w/node_modules/i18next/dist/esm/i18next.js',
      '/w/node_modules/react-i18next/dist/es/index.js',
      '/w/src/i18n/engine.ts',
      '/w/src/i18n/zh.ts',
      '/w/src/i18n/common.zh.ts',
      'C:\\w\\node_modules\\i18next\\dist\\esm\\i18next.js',
      // and rxjs: the notices are a plain list of listeners (src/system/notices.ts)
      '/w/node_modules/rxjs/dist/esm5/internal/Subject.js',
    ])
      expect(later(id), id).toBe(true);
    // what an English console says with stays in the start
    for (const id of ['/w/src/i18n/index.ts', '/w/src/i18n/common.ts', '/w/contract/messages.ts']) expect(later(id), id).toBe(false);
  });
  it("keeps the charts out of the start: the dashboard's widgets and charts (src/ui/BarChart.tsx, visx, d3's scales)", () => {
    for (const id of [
      '/w/src/ui/BarChart.tsx',
      '/w/src/screens/general/DashboardCharts.tsx',
      '/w/src/screens/general/DashboardWidgets.tsx',
      '/w/node_modules/@visx/shape/esm/shapes/Bar.js',
      '/w/node_modules/@visx/vendor/esm/d3-scale.js',
      '/w/node_modules/d3-scale/src/band.js',
      'C:\\w\\node_modules\\@visx\\axis\\esm\\axis\\AxisBottom.js',
    ])
      expect(later(id), id).toBe(true);
    for (const id of ['/w/src/ui/time.ts', '/w/src/screens/general/DashboardScreen.tsx']) expect(later(id), id).toBe(false);
  });
  it('fails the build when i18next is in a chunk of the start', () => {
    const errors: string[] = [];
    const plugin = startChunksCheck(START_LATER);
    const generate = plugin.generateBundle as unknown as (this: { error(m: string): never }, o: unknown, b: Record<string, unknown>) => void;
    const c = (fileName: string, name: string, modules: string[], imports: string[] = [], isEntry = false) => ({
      type: 'chunk',
      fileName,
      name,
      isEntry,
      imports,
      dynamicImports: [],
      modules: Object.fromEntries(modules.map((m) => [m, {}])),
    });
    const bundle = [
      c('index.js', 'index', ['/w/src/main.tsx'], ['console.js'], true),
      c('console.js', 'console', ['/w/src/app/App.tsx', '/w/src/i18n/index.ts', '/w/node_modules/i18next/dist/esm/i18next.js']),
    ];
    try {
      generate.call(
        {
          error: (m: string) => {
            errors.push(m);
            throw new Error(m);
          },
        },
        {},
        Object.fromEntries(bundle.map((x) => [x.fileName, x])),
      );
    } catch {
      // the build stops at the first error
    }
    expect(errors).toEqual([expect.stringContaining('i18next.js is in the start')]);
  });
});

describe("Blueprint's hotkeys dialog, loaded when it first opens", () => {
  const plugin = lazyHotkeysDialog();
  const resolveId = plugin.resolveId as (source: string, importer: string | undefined) => string | null;
  const load = plugin.load as (id: string) => string | null;
  const PROVIDER = '/w/node_modules/@blueprintjs/core/lib/esm/context/hotkeys/hotkeysProvider.js';

  it("stands in only for the HotkeysProvider's import of the dialog", () => {
    const id = resolveId('../../components/hotkeys/hotkeysDialog', PROVIDER);
    expect(id).toBeTruthy();
    expect(load(id!)).toBe(LAZY_HOTKEYS_DIALOG_CODE);
    expect(resolveId('../../components/hotkeys/hotkeysDialog', '/w/node_modules/@blueprintjs/core/lib/esm/components/hotkeys/index.js')).toBeNull();
    expect(resolveId('../../common/utils', PROVIDER)).toBeNull();
  });

  it('imports the real dialog only through import(), and draws it from its first opening on', () => {
    expect(LAZY_HOTKEYS_DIALOG_CODE).not.toMatch(/^import .*hotkeysDialog/m);
    expect(LAZY_HOTKEYS_DIALOG_CODE).toContain("import('@blueprintjs/core/lib/esm/components/hotkeys/hotkeysDialog.js')");
    expect(LAZY_HOTKEYS_DIALOG_CODE).toMatch(/opened \|\| props\.isOpen \?/);
  });
});
