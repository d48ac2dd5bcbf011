// The serial line's tests run before the suite's other forks (edge/osdp/linePriority.setup.ts): this file opens a line
// (ptyPair), so vitest's setup gave its fork LINE_NICE; and which files count as a line's is read from their source.
import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINE_NICE, runsALine } from './linePriority.setup';
import { ptyPair } from './testkit';

describe("a serial line's test file runs first", () => {
  it('runs this file (it opens a line) at LINE_NICE where the run may raise it (root, as CI), and the line works', async () => {
    const line = await ptyPair();
    try {
      if (process.getuid?.() === 0) expect(getPriority()).toBe(LINE_NICE);
      const got = new Promise<Buffer>((r) => line.b.once('data', r));
      line.a.write(Buffer.from([0x53, 0x00]));
      expect([...(await got)]).toEqual([0x53, 0x00]);
    } finally {
      await line.close();
    }
  });

  it("counts a file as a line's by what it calls, not by a list", () => {
    const here = import.meta.dirname;
    expect(runsALine(join(here, 'bus.test.ts'))).toBe(true);
    expect(runsALine(join(here, 'frame.test.ts'))).toBe(false);
    expect(runsALine(join(here, 'no-such.test.ts'))).toBe(false);
    // every test file of the OSDP room that opens a line is counted
    const lines = readdirSync(here).filter((f) => f.endsWith('.test.ts') && runsALine(join(here, f)));
    expect(lines).toEqual(expect.arrayContaining(['bus.test.ts', 'tools.scan.test.ts', 'linePriority.test.ts']));
  });
});
