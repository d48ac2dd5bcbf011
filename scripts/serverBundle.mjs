// The server as JavaScript for the end-to-end run: server/main.ts and what it imports of this repository, bundled once
// per run with esbuild (tsx's own compiler), so that each end-to-end server starts with plain node instead of through
// tsx's loader. A start from the seeded template took 6.4 s of processor time this way against 9.5 s through tsx, and
// reached its health check in 0.79 of the time (median of 6 starts each, taken in turn, load ~7, 2026-12-06); a run
// starts about ten (the template, the workers', the specs' own and their restarts). Bundling takes about a second.
// scripts/test.mjs builds it and hands it to every process that starts a server in E2E_SERVER_BUNDLE (e2e/server.ts);
// without it (Playwright run by hand, or a build that failed) the servers start through tsx as before.
//
// `node scripts/serverBundle.mjs` builds one and prints its entry (to hand to a Playwright run by hand).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What e2e/server.ts reads: the bundle's entry, started as `node --enable-source-maps <entry>`. */
export const SERVER_BUNDLE_ENV = 'E2E_SERVER_BUNDLE';

/**
 * Bundles server/main.ts into a new directory under .tmp/ (in the repository, so that the packages it leaves to
 * node_modules resolve as the sources' do) and resolves to its entry and a function that removes it.
 * - The packages stay outside the bundle (node_modules, loaded as they are), and so does every file the server reads
 *   at run time (its migrations, the demo picture, the backup worker): each module's `import.meta.url` is its source
 *   file's, as it is under tsx.
 * - The server's own lazy imports stay lazy (chunks), and a stack trace names the source (source maps, as tsx gives).
 */
export async function bundleServer(root = process.cwd()) {
  const { build } = await import('esbuild');
  mkdirSync(resolve(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(resolve(root, '.tmp'), 'e2e-server-'));
  try {
    await build({
      absWorkingDir: resolve(root),
      entryPoints: ['server/main.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      packages: 'external',
      splitting: true,
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      sourcemap: 'linked',
      logLevel: 'error',
      plugins: [
        {
          name: 'source-file-urls',
          setup(b) {
            b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
              const text = readFileSync(args.path, 'utf8');
              return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
            });
          },
        },
      ],
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return { entry: join(dir, 'main.mjs'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { entry } = await bundleServer();
  console.log(entry);
}
