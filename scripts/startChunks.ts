// The console's start in a few chunks (issue 48), used by vite.config.ts. Left to itself the bundler makes one chunk
// for every set of dynamic imports that share a module, and the cold dashboard fetched 31 scripts: each answer costs
// ~830 B of HTTP headers (helmet's among them) and compresses alone. These groups put
//   - 'console': every module the console's start evaluates (src/app/App.tsx, src/signin/mountConsole.tsx and what
//     they import) and what the dashboard imports beside its own files, less what the sign-in page has already;
//   - 'base': what the sign-in page's form (src/signin/SignInPage.tsx) shares with the console (React DOM, the REST
//     client), so the sign-in page and the console fetch it once, as one script;
// and leave the rest to the bundler: the entry (src/main.tsx), the sign-in page's own chunk, the dashboard's own
// files, every screen and everything loaded later. A section's chunk that needs a module of 'console' imports it
// from there (it is on the page already).
//
// What "imports" means here is what the bundler keeps: a module free of side effects (contract/, see vite.config.ts,
// and packages marked so, Blueprint's among them) is part of the start only when a binding it declares is asked for,
// through barrels' re-exports (contract/index.ts names every declaration of the catalogue; the start asks for a few),
// never merely because a barrel names it. Within a module every import counts (the bundler may drop an unused one
// that this walk keeps: the `firstload` bench shows the bytes). The groups do not take their members' dependencies
// along (includeDependenciesRecursively: false): the walk already did, and a dependency the sign-in page has must
// stay where the sign-in page finds it.
import { readFileSync } from 'node:fs';
import { parseSync } from 'rolldown/utils';
import type { Plugin } from 'vite';

/** What rolldown's chunking tells a group's `name` about a module. */
export interface ModuleGraph {
  getModuleInfo(id: string): { code: string | null; importedIds: readonly string[] } | null;
}

type Wanted = string | '*' | null; // a binding's name, all of them (a namespace), none (a bare import)
type Node = Record<string, any>;

interface Parsed {
  /** The module's import sources in order, once each (rolldown's importedIds pair with them by order). */
  sources: string[];
  /** Its imported bindings: local name → the source's index and the name it has there ('*': a namespace). */
  imports: Map<string, { src: number; name: string }>;
  /** Sources imported bare (`import './x'`), or whose bindings are all imported unused. */
  bare: Set<number>;
  /** Re-exports: by source index, every name (`export *`) or some (`export { a as b } from`; from '*': a namespace). */
  reexports: Map<number, 'all' | { from: string; as: string }[]>;
  /** Exported name → the local binding it is. */
  exported: Map<string, string>;
  /** Top-level statements: the bindings each declares and every name it mentions. */
  statements: { declares: string[]; refs: Set<string> }[];
  declaredBy: Map<string, number[]>;
}

const nameOf = (n: Node) => (n.type === 'Identifier' ? (n.name as string) : String(n.value));

/** Every identifier under a node (references, bindings and property names alike: a superset of what it uses). */
function identifiers(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) identifiers(n, out);
  else if (node && typeof node === 'object') {
    const n = node as Node;
    if (n.type === 'Identifier' && typeof n.name === 'string') out.add(n.name);
    for (const k in n) if (k !== 'type' && k !== 'start' && k !== 'end' && k !== 'range' && k !== 'loc') identifiers(n[k], out);
  }
  return out;
}

function parse(id: string, code: string): Parsed | null {
  let program;
  try {
    program = parseSync(id, code, { lang: 'js', sourceType: 'module' }).program;
  } catch {
    return null;
  }
  const p: Parsed = { sources: [], imports: new Map(), bare: new Set(), reexports: new Map(), exported: new Map(), statements: [], declaredBy: new Map() };
  const src = (source: string) => {
    const i = p.sources.indexOf(source);
    return i >= 0 ? i : p.sources.push(source) - 1;
  };
  const statement = (declares: string[], node: unknown) => {
    const i = p.statements.push({ declares, refs: identifiers(node, new Set()) }) - 1;
    for (const d of declares) p.declaredBy.set(d, [...(p.declaredBy.get(d) ?? []), i]);
  };
  const declared = (d: Node): string[] =>
    d.type === 'VariableDeclaration' ? (d.declarations as Node[]).flatMap((v) => [...identifiers(v.id, new Set())]) : d.id ? [d.id.name as string] : [];
  for (const s of program.body as unknown as Node[]) {
    if (s.type === 'ImportDeclaration') {
      if (s.importKind === 'type') continue;
      const i = src(s.source.value);
      if (s.specifiers.length === 0) p.bare.add(i);
      for (const sp of s.specifiers as Node[])
        p.imports.set(sp.local.name, {
          src: i,
          name: sp.type === 'ImportDefaultSpecifier' ? 'default' : sp.type === 'ImportNamespaceSpecifier' ? '*' : nameOf(sp.imported),
        });
    } else if (s.type === 'ExportAllDeclaration') {
      const i = src(s.source.value);
      const r = p.reexports.get(i);
      if (s.exported) p.reexports.set(i, r === 'all' ? r : [...(r ?? []), { from: '*', as: nameOf(s.exported) }]);
      else p.reexports.set(i, 'all');
    } else if (s.type === 'ExportNamedDeclaration' && s.source) {
      const i = src(s.source.value);
      const r = p.reexports.get(i);
      if (r !== 'all') p.reexports.set(i, [...(r ?? []), ...(s.specifiers as Node[]).map((sp) => ({ from: nameOf(sp.local), as: nameOf(sp.exported) }))]);
    } else if (s.type === 'ExportNamedDeclaration') {
      if (s.declaration) {
        const names = declared(s.declaration);
        for (const n of names) p.exported.set(n, n);
        statement(names, s.declaration);
      }
      for (const sp of (s.specifiers ?? []) as Node[]) p.exported.set(nameOf(sp.exported), nameOf(sp.local));
    } else if (s.type === 'ExportDefaultDeclaration') {
      const own = s.declaration.id?.name as string | undefined;
      p.exported.set('default', own ?? '*default*');
      statement(own ? [own] : ['*default*'], s.declaration);
    } else statement(declared(s), s);
  }
  return p;
}

const packageSideEffects = new Map<string, boolean>();
/** Whether the bundler may leave the module, or any statement of it, out when it is not used. */
function sideEffectFree(id: string, contractPattern: RegExp): boolean {
  if (contractPattern.test(id)) return true;
  const m = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id);
  if (!m || /\.css$/.test(id)) return false;
  let free = packageSideEffects.get(m[1]);
  if (free === undefined) {
    try {
      const se = (JSON.parse(readFileSync(`${m[1]}/package.json`, 'utf8')) as { sideEffects?: unknown }).sideEffects;
      // false, or only stylesheets listed (Blueprint's `**/*.css`)
      free = se === false || (Array.isArray(se) && se.every((p) => /\.css$/.test(String(p))));
    } catch {
      free = false;
    }
    packageSideEffects.set(m[1], free);
  }
  return free;
}

/** The modules the bundler keeps when these modules are evaluated: their static imports; through a module free of
 *  side effects, statement by statement from the bindings asked of it. */
export function staticReach(graph: ModuleGraph, roots: string[], contractPattern: RegExp): Set<string> {
  interface Mod {
    p: Parsed | null; // null: CommonJS, unparsed, or paired unsure: every import counts whole
    ids: readonly string[];
    free: boolean;
    asked: Set<string>;
    used: Set<number>;
  }
  const mods = new Map<string, Mod | null>();
  const mod = (id: string): Mod | null => {
    if (!mods.has(id)) {
      const i = graph.getModuleInfo(id);
      let p = i?.code == null ? null : parse(id, i.code);
      // the bundler's own imports follow the module's (Vite's preload helper); two sources of one module pair badly
      if (p && i && (p.sources.length > i.importedIds.length || (p.sources.length === 0 && i.importedIds.length > 0))) p = null;
      mods.set(id, i ? { p, ids: i.importedIds, free: p !== null && sideEffectFree(id, contractPattern), asked: new Set(), used: new Set() } : null);
    }
    return mods.get(id)!;
  };
  const kept = new Set<string>();
  const work: [string, Wanted][] = roots.map((r) => [r, '*']);
  const ask = (m: Mod, src: number, name: Wanted) => work.push([m.ids[src], name]);
  const use = (id: string, m: Mod, statement: number) => {
    if (m.used.has(statement)) return;
    m.used.add(statement);
    keep(id, m);
    for (const r of m.p!.statements[statement].refs) local(id, m, r);
  };
  const local = (id: string, m: Mod, name: string) => {
    const imp = m.p!.imports.get(name);
    if (imp) ask(m, imp.src, imp.name);
    for (const s of m.p!.declaredBy.get(name) ?? []) use(id, m, s);
  };
  const keep = (id: string, m: Mod) => {
    if (kept.has(id)) return;
    kept.add(id);
    for (const t of m.ids.slice(m.p?.sources.length ?? 0)) work.push([t, '*']);
    if (!m.p) return;
    // what runs when the module is evaluated: in a module with side effects every statement and import, in one free
    // of them the statements that declare nothing (a displayName set on a component)
    m.p.statements.forEach((_, i) => use(id, m, i));
    for (const b of m.p.bare) ask(m, b, null);
    if (!m.free) for (const [, imp] of m.p.imports) ask(m, imp.src, imp.name);
  };
  while (work.length) {
    const [id, wanted] = work.pop()!;
    const m = mod(id);
    if (!m) continue;
    const key = wanted ?? '';
    if (m.asked.has(key) || m.asked.has('*')) continue;
    m.asked.add(key);
    if (!m.free) keep(id, m);
    if (wanted === null || !m.p) continue;
    const names = wanted === '*' ? [...m.p.exported.keys()] : [wanted];
    for (const n of names) {
      const l = m.p.exported.get(n);
      // a binding it imports and exports again is asked of its source: the module itself is kept for what it declares
      if (l !== undefined) local(id, m, l);
    }
    // names passed on: asked of the module, declared by another
    for (const [src, r] of m.p.reexports) {
      if (r === 'all') {
        if (wanted === '*' || (!m.p.exported.has(wanted) && wanted !== 'default')) ask(m, src, wanted);
      } else for (const e of r) if (wanted === '*' || e.as === wanted) ask(m, src, e.from);
    }
  }
  return kept;
}

export interface StartChunkRoots {
  /** The page's entry (its static imports are in the entry chunk). */
  entry: string;
  /** The sign-in page's form, loaded by the entry. */
  signIn: string;
  /** The console's code, loaded by the entry. */
  console: string[];
  /** The opening screen most operators land on, and its own files (left in its chunk). */
  opening: { screen: string; ownFiles: RegExp };
  /** contract/'s modules (free of side effects: vite.config.ts). */
  contract: RegExp;
}

/** rolldown's codeSplitting option (build.rollupOptions.output.codeSplitting) for the console's start. */
export function startChunks(roots: StartChunkRoots) {
  // one chunking pass asks for every module's group: the walk is made once per pass
  const passes = new WeakMap<object, Map<string, string>>();
  const assign = (graph: ModuleGraph) => {
    const reach = (rs: string[]) => staticReach(graph, rs, roots.contract);
    const page = reach([roots.entry]);
    const signIn = reach([roots.signIn]);
    const start = reach(roots.console);
    const opening = reach([roots.opening.screen]);
    const out = new Map<string, string>();
    for (const id of [...start, ...opening]) {
      if (page.has(id)) continue;
      if (signIn.has(id)) out.set(id, 'base');
      else if (start.has(id) || !roots.opening.ownFiles.test(id)) out.set(id, 'console');
    }
    return out;
  };
  return {
    includeDependenciesRecursively: false,
    groups: [
      {
        debugName: 'console start',
        name: (id: string, ctx: ModuleGraph) => {
          let groups = passes.get(ctx);
          if (!groups) passes.set(ctx, (groups = assign(ctx)));
          return groups.get(id) ?? null;
        },
      },
    ],
  };
}

/** What loads after the console's start by design (issue 48): the build fails when one of these is in a chunk of the
 *  start (startChunksCheck, given this list by vite.config.ts). The dashboard's widgets under its counts with their
 *  charts (src/ui/BarChart.tsx with visx and d3's scales), Blueprint's overlays (Overlay2
 *  and its transitions: the drawers, the toaster, the hotkeys dialog), the popovers (floating-ui), the tour's overlay,
 *  the live connection's STOMP and SockJS, the other screens' logic, and i18next with the zh-CN dictionaries
 *  (src/i18n/engine.ts: English is said without them, src/i18n/index.ts); rxjs (the notices are a list of listeners,
 *  src/system/notices.ts). */
export const START_LATER: readonly RegExp[] = [
  /[\\/]node_modules[\\/](@visx[\\/]\w+|d3-\w+|react-transition-group|@floating-ui|@stomp|sockjs-client|i18next|react-i18next|rxjs)[\\/]/,
  /[\\/]@blueprintjs[\\/]core[\\/]lib[\\/]esm[\\/]components[\\/](overlay2|dialog|drawer|toast|hotkeys[\\/]hotkeysDialog)[\\/.]/,
  /[\\/]src[\\/](app[\\/](SettingsDrawer|SidebarDrawer|toaster|TourOverlay)|ui[\\/](popoverKit|BarChart)|system[\\/]screenLogic|screens[\\/]general[\\/]Dashboard(Charts|Widgets)|i18n[\\/](engine|zh|common\.zh))\./,
];

const REQUEST_CONSTRUCTORS = new Set(['XMLHttpRequest', 'WebSocket', 'EventSource', 'Image', 'Worker', 'SharedWorker']);

/** Issue 48: where a module asks for something over the network at its top level, as it is evaluated (an `import()`,
 *  a `fetch`, a `.preload()`, a request's constructor outside any function): "import() at line 41". Such a request is
 *  made from the top-level code of the start's chunk, the one task that evaluates the start, and its initiator's stack
 *  then holds that whole chunk's top-level code: with a DevTools client attached (the benches' and the end-to-end
 *  tests' Playwright) chromium re-parses the chunk to say where on it the request was made (docs/BENCHMARKS.md "The
 *  console's first load"). What the start asks for early it asks in a task of its own (src/app/App.tsx). Code in a
 *  function is not read (it runs when called); a call at the top level of a function that requests is not followed. */
export function topLevelRequests(id: string, code: string): string[] {
  let program;
  try {
    program = parseSync(id, code, { lang: /\.tsx?$/.test(id) ? 'tsx' : 'js', sourceType: 'module' }).program;
  } catch {
    return [];
  }
  const found: string[] = [];
  const line = (n: Node) => code.slice(0, n.start as number).split('\n').length;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') return;
    if ((n.type === 'PropertyDefinition' || n.type === 'AccessorProperty') && !n.static) return;
    if (n.type === 'ImportExpression') found.push(`import() at line ${line(n)}`);
    if (n.type === 'CallExpression') {
      const c = n.callee as Node;
      if (c.type === 'Identifier' && c.name === 'fetch') found.push(`fetch() at line ${line(n)}`);
      if (c.type === 'MemberExpression' && !c.computed && ['preload', 'fetch', 'sendBeacon'].includes(c.property.name as string))
        found.push(`.${c.property.name as string}() at line ${line(n)}`);
    }
    if (n.type === 'NewExpression' && n.callee.type === 'Identifier' && REQUEST_CONSTRUCTORS.has(n.callee.name as string))
      found.push(`new ${n.callee.name as string}() at line ${line(n)}`);
    for (const k in n) if (k !== 'type' && k !== 'start' && k !== 'end' && k !== 'range' && k !== 'loc') visit(n[k]);
  };
  visit(program.body);
  return found;
}

/** Fails the build when a chunk the start's groups import imports them back: the walk above missed a module the
 *  bundler links to the start, and a cycle of chunks evaluates one of them before what it uses; and when a module
 *  that loads later by design (`later`: the charts, the overlays, the live connection's libraries…) is in the start's
 *  chunks again (the entry's, the groups', the opening screen's), or in a chunk they import; and when a module of those
 *  chunks but the entry's asks for something over the network at its top level (topLevelRequests). */
export function startChunksCheck(later: readonly RegExp[] = [], opening = 'DashboardScreen'): Plugin {
  return {
    name: 'gatehouse:start-chunks-check',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const start = new Set<string>();
      const walkStart = (f: string) => {
        if (start.has(f) || !chunks.has(f)) return;
        start.add(f);
        for (const i of chunks.get(f)!.imports) walkStart(i);
      };
      for (const c of chunks.values()) if (c.isEntry || c.name === 'console' || c.name === 'base' || c.name === opening) walkStart(c.fileName);
      for (const f of start) {
        const early = Object.keys(chunks.get(f)!.modules).find((id) => later.some((p) => p.test(id)));
        if (early) this.error(`${early} is in the start's chunk ${f}: it loads later by design (scripts/startChunks.ts START_LATER)`);
      }
      // the entry's own modules start the page's loads at their top level (src/main.tsx): that chunk is small
      for (const f of start) {
        if (chunks.get(f)!.isEntry) continue;
        for (const id of Object.keys(chunks.get(f)!.modules)) {
          const code = this.getModuleInfo?.(id)?.code;
          const asks = code ? topLevelRequests(id, code) : [];
          if (asks.length)
            this.error(
              `${id} (the start's chunk ${f}) asks for something as it is evaluated (${asks.join(', ')}): ask in a task of its own (scripts/startChunks.ts topLevelRequests)`,
            );
        }
      }
      for (const group of [...chunks.values()].filter((c) => c.name === 'console' || c.name === 'base')) {
        const seen = new Set<string>();
        const walk = (f: string): boolean => {
          if (seen.has(f)) return false;
          seen.add(f);
          return (chunks.get(f)?.imports ?? []).some((i) => i === group.fileName || walk(i));
        };
        const back = group.imports.find(walk);
        if (back) this.error(`the start's chunk ${group.fileName} imports ${back}, which imports it back (scripts/startChunks.ts)`);
      }
    },
  };
}

const HOTKEYS_PROVIDER = /[\\/]node_modules[\\/]@blueprintjs[\\/]core[\\/]lib[\\/]esm[\\/]context[\\/]hotkeys[\\/]hotkeysProvider\.js$/;
const LAZY_HOTKEYS_DIALOG = '\0gatehouse:lazy-hotkeys-dialog';
/** The module that stands for Blueprint's HotkeysDialog in its HotkeysProvider: the same dialog, its code fetched the
 *  first time it opens ("?" where a component registered hotkeys, Blueprint's Table2 among them), drawn from then on
 *  as Blueprint draws it (so it closes with its transition). */
export const LAZY_HOTKEYS_DIALOG_CODE = `import { createElement, lazy, Suspense, useState } from 'react';
const Dialog = lazy(() => import('@blueprintjs/core/lib/esm/components/hotkeys/hotkeysDialog.js').then((m) => ({ default: m.HotkeysDialog })));
export function HotkeysDialog(props) {
  const [opened, setOpened] = useState(false);
  if (props.isOpen && !opened) setOpened(true);
  return opened || props.isOpen ? createElement(Suspense, { fallback: null }, createElement(Dialog, props)) : null;
}
`;
/** Issue 48: Blueprint's HotkeysProvider (the console's root, src/app/App.tsx) imports its hotkeys dialog, and with it
 *  the Dialog, Overlay2, its portal and react-transition-group (~7 KB compressed): all in the console's start for a
 *  dialog that opens on "?" at most. This gives the provider a stand-in that loads the dialog when it first opens. */
export function lazyHotkeysDialog(): Plugin {
  return {
    name: 'gatehouse:lazy-hotkeys-dialog',
    apply: 'build',
    enforce: 'pre', // before Vite's own resolver finds the real file
    resolveId: (source, importer) => (/[\\/]hotkeysDialog(\.js)?$/.test(source) && importer && HOTKEYS_PROVIDER.test(importer) ? LAZY_HOTKEYS_DIALOG : null),
    load: (id) => (id === LAZY_HOTKEYS_DIALOG ? LAZY_HOTKEYS_DIALOG_CODE : null),
  };
}
