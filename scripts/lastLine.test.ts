import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error a plain ES module of the test runner, without types
import { lastLineOf } from './lastLine.mjs';

describe('a helper script run beside the steps of npm test (scripts/lastLine.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gh-lastline-'));
  const script = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, body);
    return file;
  };

  it('answers the last line of its standard output, not what it warned on its standard error', async () => {
    const file = script('ok.ts', "console.log('working');\nconsole.error('a warning');\nconsole.log('/tmp/made-here');\n");
    expect(await lastLineOf(file, () => 'failed')).toBe('/tmp/made-here');
  });

  it('answers null when it fails, and says so with what it wrote', async () => {
    const said = vi.spyOn(console, 'log').mockImplementation(() => {});
    const file = script('bad.ts', "console.log('half done');\nconsole.error('broke');\nprocess.exit(3);\n");
    expect(await lastLineOf(file, (code: number) => `(not made, exit ${code})`)).toBeNull();
    // its two streams arrive in either order
    expect(said.mock.calls.length).toBe(1);
    const message = String(said.mock.calls[0][0]);
    expect([message.startsWith('\n(not made, exit 3)\n'), message.includes('half done'), message.includes('broke')]).toEqual([true, true, true]);
    said.mockRestore();
  });
});
