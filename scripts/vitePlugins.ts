// Build plugins of the console's first load (issue 10), used by vite.config.ts.
//   blueprintIcons(): Blueprint 6 draws an icon from its SVG paths, which its default loader fetches as one chunk of
//     all 2,121 icons per size (about 300 KB each) the first time any icon is drawn, and until then it draws the icon
//     font. This plugin finds the icon names the console's sources give (`icon="…"`, `icon: '…'`, `rightIcon={…}`,
//     `'…' as IconName`), plus every quoted icon name of the files that hold icons as data (ICON_DATA_FILES: the
//     route table passes them positionally), and offers exactly those paths as `virtual:blueprint-icons` (16 px) and
//     `virtual:blueprint-icons/20` (20 px, loaded later); src/app/icons.ts hands the 16 px ones to Blueprint before the first render. A name the scan cannot see (built at run time) still works:
//     it falls back to Blueprint's own per-size chunk.
//   axiosXhrOnly(): the console's axios answers through XMLHttpRequest, its default adapter in a browser (['xhr',
//     'http', 'fetch']: the first one the browser has); its fetch adapter (3 KB compressed, a stream and progress
//     layer over fetch) is never reached, and the build leaves it out (issue 48).
//   precompress(): writes a brotli (quality 11, the smallest) and a gzip (level 9) copy beside every compressible file of the
//     build, which the server sends as they are (server/http/static.ts), so no request pays for compression.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
const ICONS_ROOT = dirname(require.resolve('@blueprintjs/icons/package.json'));
const pathsDir = (size: 16 | 20) => join(ICONS_ROOT, 'lib/esm/generated', `${size}px`, 'paths');

/** Every icon name Blueprint has (one paths module per icon and size). */
export function blueprintIconNames(): Set<string> {
  return new Set(
    readdirSync(pathsDir(16))
      .filter((f) => f.endsWith('.js') && f !== 'index.js')
      .map((f) => f.slice(0, -3)),
  );
}

// an icon prop or field (`icon`, `rightIcon`, `iconName`…) and the rest of its line, or a literal cast to IconName
const ICON_CONTEXT = /\b\w*[iI]con\w*\??\s*[:=]\s*([^\n]*)/g;
const CAST = /['"]([a-z0-9-]+)['"]\)?\s+as\s+IconName\b/g;
const QUOTED = /['"]([a-z0-9-]+)['"]/g;

/** The icon names a source text gives (only real Blueprint names). */
export function iconNamesIn(text: string, known: Set<string>): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(ICON_CONTEXT)) for (const q of m[1].matchAll(QUOTED)) if (known.has(q[1])) found.add(q[1]);
  for (const m of text.matchAll(CAST)) if (known.has(m[1])) found.add(m[1]);
  return [...found];
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** Files that give icon names as plain data (`crud(…, 'th-list', …)`): every quoted icon name in them counts (the route
 *  table and its rows, one file per sidebar section under src/app/routes/, and the catalogue's light index, generated
 *  with quoted keys, which the sidebar's resource rows read). */
export const ICON_DATA_FILES = ['src/app/routeTable.ts', ...sourceFiles('src/app/routes'), 'contract/resources/catalogueIndex.ts'];

/** The icon names used under these folders, sorted. */
export function usedIconNames(roots: string[], dataFiles = ICON_DATA_FILES): string[] {
  const known = blueprintIconNames();
  const found = new Set<string>();
  for (const root of roots) for (const f of sourceFiles(root)) for (const n of iconNamesIn(readFileSync(f, 'utf8'), known)) found.add(n);
  for (const f of dataFiles) for (const m of readFileSync(f, 'utf8').matchAll(QUOTED)) if (known.has(m[1])) found.add(m[1]);
  return [...found].sort();
}

const VIRTUAL = 'virtual:blueprint-icons';

/** Blueprint's `iconNames` module, which its icon loader imports to check a name (`Icons.getPaths`, on every icon
 *  drawn), builds a map of every icon name in two spellings from a 64 KB enum (9 KB compressed) at the console's
 *  start. The same module in small (issue 48): the names in one string (under 3 KB compressed) make the same
 *  `IconNamesSet`; `IconNames` (both spellings, as Blueprint builds them) is made the first time it is read. */
export const ICON_NAMES_MODULE = /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]iconNames\.js$/;
/** The icon names of Blueprint's enum, in its order (the order `Object.values(IconNames)` gives). */
export function blueprintEnumNames(): string[] {
  const text = readFileSync(join(ICONS_ROOT, 'lib/esm/generated/16px/blueprint-icons-16.js'), 'utf8');
  return [...text.matchAll(/BlueprintIcons_16\["\w+"\] = "([^"]+)";/g)].map((m) => m[1]);
}
export function iconNamesModule(names: string[] = blueprintEnumNames()): string {
  return `import { pascalCase, snakeCase } from "change-case";
const names = ${JSON.stringify(names.join(','))}.split(",");
export const IconNamesSet = new Set(names);
let all = null;
function built() {
  if (all) return all;
  const current = {};
  const legacy = {};
  for (const name of names) {
    current[pascalCase(name)] = name;
    legacy[snakeCase(name).toUpperCase()] = name;
  }
  return (all = { ...current, ...legacy });
}
export const IconNames = new Proxy({}, {
  get: (_t, key) => built()[key],
  has: (_t, key) => key in built(),
  ownKeys: () => Reflect.ownKeys(built()),
  getOwnPropertyDescriptor: (_t, key) => Reflect.getOwnPropertyDescriptor(built(), key),
});
`;
}

/** The 20 px paths, a module of their own (issue 48): the console's first screen draws 16 px icons, so a cold load
 *  fetches those and src/app/icons.ts asks for this one after the opening screen is read, or when a large icon is drawn.
 *  The 16 px icons no module of the start names come in it too (ICON_PATHS_16): the start's own are the shell's and
 *  the dashboard's (startIconNames), about half of them. */
const VIRTUAL_20 = 'virtual:blueprint-icons/20';

// a static import or re-export of a relative path (not `import type`)
const RELATIVE_IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
// contract's barrels name every declaration of the catalogue; the start reads the catalogue's light index instead
const CONTRACT_BARREL = /[\\/]contract[\\/](?:resources[\\/])?index\.ts$/;

function sourceFileOf(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const f of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (existsSync(f) && statSync(f).isFile()) return f;
  return null;
}

/** The console's sources the start evaluates: what these files import statically, by relative paths, not through
 *  contract's barrels (an over-count is harmless: an icon more in the start). */
export function startSourceFiles(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const walk = (f: string) => {
    if (seen.has(f) || CONTRACT_BARREL.test(f) || !/\.tsx?$/.test(f)) return;
    seen.add(f);
    for (const m of readFileSync(f, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const t = sourceFileOf(f, m[1]);
      if (t) walk(t);
    }
  };
  roots.forEach((r) => walk(resolve(r)));
  return seen;
}

/** The icon names the start's sources give (the route table's data files whole), sorted. */
export function startIconNames(startRoots: string[], dataFiles = ICON_DATA_FILES): string[] {
  const known = blueprintIconNames();
  const data = new Set(dataFiles.map((f) => resolve(f)));
  const found = new Set<string>();
  for (const f of startSourceFiles(startRoots)) {
    const text = readFileSync(f, 'utf8');
    for (const n of iconNamesIn(text, known)) found.add(n);
    if (data.has(f)) for (const m of text.matchAll(QUOTED)) if (known.has(m[1])) found.add(m[1]);
  }
  return [...found].sort();
}

const pathsModule = (size: 16 | 20, names: string[], prefix: string, exportName: string) => ({
  imports: names.map((n, i) => `import ${prefix}${i} from ${JSON.stringify(join(pathsDir(size), `${n}.js`))};`),
  body: `export const ${exportName} = {\n${names.map((n, i) => `  ${JSON.stringify(n)}: ${prefix}${i},`).join('\n')}\n};`,
});

/** `startRoots`: the modules the console's start evaluates (their icons come with it; the rest with the 20 px). */
export function blueprintIcons(roots: string[], startRoots: string[]): Plugin {
  return {
    name: 'gatehouse:blueprint-icons',
    resolveId: (id) => (id === VIRTUAL || id === VIRTUAL_20 ? '\0' + id : null),
    load(id) {
      if (ICON_NAMES_MODULE.test(id)) return iconNamesModule();
      if (id !== '\0' + VIRTUAL && id !== '\0' + VIRTUAL_20) return null;
      for (const root of roots) for (const f of sourceFiles(root)) this.addWatchFile(f);
      const names = usedIconNames(roots);
      const start = new Set(startIconNames(startRoots));
      const parts =
        id === '\0' + VIRTUAL
          ? [
              pathsModule(
                16,
                names.filter((n) => start.has(n)),
                's',
                'ICON_PATHS',
              ),
            ]
          : [
              pathsModule(20, names, 'l', 'ICON_PATHS'),
              pathsModule(
                16,
                names.filter((n) => !start.has(n)),
                's',
                'ICON_PATHS_16',
              ),
            ];
      return [...parts.flatMap((p) => p.imports), ...parts.map((p) => p.body)].join('\n') + '\n';
    },
  };
}

const AXIOS_ADAPTERS = /[\\/]node_modules[\\/]axios[\\/]lib[\\/]adapters[\\/]adapters\.js$/;
const NO_FETCH_ADAPTER = '\0gatehouse:axios-no-fetch';
/** axios's registry of adapters without its fetch adapter: asked for by name, `fetch` says it is not supported here. */
export function axiosXhrOnly(): Plugin {
  return {
    name: 'gatehouse:axios-xhr-only',
    apply: 'build',
    enforce: 'pre', // before Vite's own resolver finds the real file
    resolveId: (source, importer) => (source === './fetch.js' && importer && AXIOS_ADAPTERS.test(importer) ? NO_FETCH_ADAPTER : null),
    load: (id) => (id === NO_FETCH_ADAPTER ? 'export const getFetch = () => false;\nexport default false;\n' : null),
  };
}

// not the legacy icon-font formats (eot, ttf, svg fonts): no current browser asks for them
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;
// 10, not 11: within 1–2 % of the size in half the time (a 460 KB chunk: 1.8 s instead of 3.6 s on a shared core)
const BROTLI_QUALITY = 11;
const br = promisify(brotliCompress);
const gz = promisify(gzip);

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'gatehouse:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    }, // an absolute --outDir stays as it is
    async writeBundle(_options, bundle) {
      await Promise.all(
        Object.keys(bundle)
          .filter((f) => COMPRESSIBLE.test(f))
          .map(async (f) => {
            const file = join(outDir, f);
            const data = readFileSync(file);
            if (data.length < MIN_BYTES || (f.endsWith('.svg') && data.includes('<font'))) return;
            const [b, g] = await Promise.all([
              br(data, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
              gz(data, { level: 9 }),
            ]);
            await Promise.all([b.length < data.length && writeFile(file + '.br', b), g.length < data.length && writeFile(file + '.gz', g)]);
          }),
      );
    },
  };
}
