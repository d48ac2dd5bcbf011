// The technician's tool (scripts/osdp.ts) against the reader tool (scripts/reader.ts), each its own process on one
// end of a real pseudo-terminal pair, as a technician would run them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ptyLinks } from './testkit.js';

const procs: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  procs.splice(0).forEach((p) => p.exitCode === null && p.kill('SIGKILL'));
  cleanups.splice(0).forEach((f) => f());
});

/** A script run as `npm run` would, its stdout read as JSON lines. */
function run(script: string, args: string[]) {
  const p = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  procs.push(p);
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: p.stdout! }).on('line', (l) => {
    lines.push(JSON.parse(l) as Record<string, unknown>);
    waiters.splice(0).forEach((w) => w());
  });
  const exited = new Promise<number | null>((resolve) => p.on('exit', (code) => resolve(code)));
  const line = async (key: string, ms = 10_000): Promise<Record<string, unknown>> => {
    const end = Date.now() + ms;
    for (;;) {
      const found = lines.find((l) => key in l);
      if (found) return found;
      if (Date.now() > end) throw new Error(`no ${key} line from ${script} within ${ms} ms: ${JSON.stringify(lines)}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  return { p, lines, line, exited, type: (s: string) => p.stdin!.write(`${s}\n`) };
}

async function bus() {
  const { pathA, pathB, socat, dir } = await ptyLinks();
  cleanups.push(() => {
    socat.kill();
    void import('node:fs').then((fs) => fs.rmSync(dir, { recursive: true, force: true }));
  });
  return { pathA, pathB };
}

describe('npm run osdp -- watch and npm run reader', () => {
  it('watch --install pairs, prints the new key once, then each card and PIN, answered with green and a beep', async () => {
    const { pathA, pathB } = await bus();
    const reader = run('reader', ['--tty', pathB, '--address', '1']);
    await reader.line('reader');
    const watch = run('osdp', ['watch', pathA, '--address', '1', '--install']);
    const paired = (await watch.line('paired')).paired as { key: string };
    expect(paired.key).toMatch(/^[0-9a-f]{32}$/);
    expect(await watch.line('online')).toMatchObject({ online: { address: 1, secure: true } });
    expect(reader.lines.some((l) => JSON.stringify(l).includes(paired.key))).toBe(false);

    reader.type('c 18:41409');
    expect(await watch.line('card')).toEqual({ card: { bits: 26, hex: expect.stringMatching(/^[0-9a-f]{8}$/) } });
    expect(await reader.line('led')).toMatchObject({ led: { temporary: 'green' } });
    expect(await reader.line('buzzer')).toMatchObject({ buzzer: { beeps: 1 } });
    reader.type('p 1234');
    expect(await watch.line('pin')).toEqual({ pin: '1234' });
    expect(watch.lines.filter((l) => 'paired' in l)).toHaveLength(1);
    watch.p.kill('SIGINT');
    expect(await watch.exited, JSON.stringify(watch.lines)).toBe(0);

    // the reader is now secure-only with its new key: a wrong key is one line of failure and a non-zero exit
    const wrong = run('osdp', ['watch', pathA, '--address', '1', '--key', '00'.repeat(16)]);
    expect(await wrong.exited).toBe(1);
    expect(wrong.lines.at(-1)).toMatchObject({ error: expect.stringMatching(/cryptogram/), address: 1 });
    const again = run('osdp', ['watch', pathA, '--address', '1', '--key', paired.key]);
    expect(await again.line('online')).toMatchObject({ online: { secure: true } });
    again.p.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 60_000);

  it('watch says "no answer" and exits 1 when no reader is there, and refuses a bad key without echoing it', async () => {
    const { pathA } = await bus();
    const watch = run('osdp', ['watch', pathA, '--address', '7', '--key', '11'.repeat(16), '--online-timeout', '1500']);
    expect(await watch.exited).toBe(1);
    expect(watch.lines).toEqual([expect.objectContaining({ error: 'no reply', address: 7 })]);
    const bad = run('osdp', ['watch', pathA, '--address', '7', '--key', 'notakey-secret']);
    expect(await bad.exited).toBe(2);
    expect(JSON.stringify(bad.lines)).not.toContain('notakey-secret');
  }, 60_000);
});
