// vitest's setup for every test file (vitest.config.ts setupFiles): a file that runs a serial line over pseudo-terminals
// (it calls ptyPair or ptyLinks, edge/osdp/testkit.ts) runs at a higher scheduling priority than the suite's other forks.
//
// Why: an OSDP line is timed (a reader answers a poll within 200 ms, the controller asks again after a missed reply,
// a scan waits 60 ms an address), and a real controller runs its line on a processor of its own. On CI's 2 shared cores
// the suite's other forks (a server test, a build) took the processor from the line's fork past a reply timeout, and
// the bus retried, skipped or scanned past readers that had answered (the clean-clone runs of 2026-12-05 failed so,
// twice, at load 8-9). Running those files alone in a step of their own cost about two minutes of CI (112 s on one fork,
// mostly waiting), so the line's fork is given the processor first instead (nice -10 against the others' 0, about nine
// to one when both want it); socat's processes, spawned by it, inherit it. It is given back after the file (a fork runs
// other files after it). Without the right to raise it (not root, no CAP_SYS_NICE) the file runs as before and says so.
import { readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { afterAll, beforeAll, expect } from 'vitest';

/** The niceness a line's test file runs at (the others run at 0). */
export const LINE_NICE = -10;

/** Whether the test file at `path` runs a serial line over pseudo-terminals (read from its source, not from a list). */
export function runsALine(path: string): boolean {
  try {
    return /\bpty(Pair|Links)\(/.test(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
}

const path = expect.getState().testPath ?? '';
if (runsALine(path)) {
  let before: number | null = null;
  beforeAll(() => {
    const was = getPriority();
    try {
      setPriority(LINE_NICE);
      before = was;
    } catch (e) {
      console.warn(`${path}: its serial line runs at the suite's own priority (${(e as Error).message})`);
    }
  });
  afterAll(() => {
    if (before !== null) setPriority(before);
  });
}
