// The end-to-end run's bundle of the server (scripts/serverBundle.mjs): what the server reads beside its own code at
// run time is found where the sources are, the packages are left to node_modules, and its lazy imports stay lazy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain ES module of the test runner, without types
import { bundleServer } from './serverBundle.mjs';

let bundle: { entry: string; remove: () => void };
let code: Map<string, string>;

beforeAll(async () => {
  bundle = await bundleServer();
  const dir = dirname(bundle.entry);
  code = new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
}, 60_000);
afterAll(() => bundle?.remove());

describe('the bundled server', () => {
  it("reads its files where the sources are: each module's own URL is its source file's", () => {
    const all = [...code.values()].join('\n');
    expect(all).not.toContain('import.meta.url');
    const urls = [...new Set([...all.matchAll(/"(file:\/\/[^"]+\.ts)"/g)].map((m) => m[1]))];
    for (const url of urls) expect(existsSync(fileURLToPath(url)), url).toBe(true);
    // the migrations, the demo data's picture and the backup worker, as server/db and server/backup name them
    const beside = (source: string, relative: string) =>
      fileURLToPath(
        new URL(
          relative,
          urls.find((u) => u.endsWith(source)),
        ),
      );
    expect(existsSync(beside('server/db/migrate.ts', './migrations/'))).toBe(true);
    expect(existsSync(beside('server/db/seed.ts', './demo/ground-floor.png'))).toBe(true);
    expect(existsSync(beside('server/backup/backups.ts', './inspectWorker.mjs'))).toBe(true);
  });

  it('leaves the packages to node_modules and keeps the lazy imports lazy', () => {
    const all = [...code.values()].join('\n');
    expect(all).toMatch(/from "fastify"/);
    expect(all).not.toContain('node_modules/');
    // server/main.ts loads the server's modules only once the start is known to go on
    expect(code.get('main.mjs')).toMatch(/import\("\.\/app-[A-Z0-9]+\.mjs"\)/);
    expect(code.get('main.mjs')!.length).toBeLessThan(50_000);
  });
});
