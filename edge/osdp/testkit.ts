// Test support: a real pseudo-terminal pair made by socat (Debian's `socat`; .ci/run installs it), opened with
// serialport on both ends, so that tests run over a real line, never a mocked port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SerialPort } from 'serialport';
import { closeSerial, openSerial } from './transport.js';

export interface PtyPair {
  /** the controller's end */
  a: SerialPort;
  /** the readers' end */
  b: SerialPort;
  pathA: string;
  pathB: string;
  close(): Promise<void>;
}

/** Two linked pseudo-terminals: raw, no echo. */
export async function ptyLinks(): Promise<{ pathA: string; pathB: string; socat: ChildProcess; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'osdp-'));
  const pathA = join(dir, 'a');
  const pathB = join(dir, 'b');
  const socat = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${pathA}`, `pty,raw,echo=0,link=${pathB}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const t = setTimeout(() => reject(new Error(`socat did not start: ${err}`)), 5000);
    socat.once('error', (e) => {
      clearTimeout(t);
      reject(new Error(`socat could not run (apt-get install -y socat): ${e.message}`));
    });
    socat.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('starting data transfer loop')) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  return { pathA, pathB, socat, dir };
}

export async function ptyPair(baudRate = 115200): Promise<PtyPair> {
  const { pathA, pathB, socat, dir } = await ptyLinks();
  const a = await openSerial(pathA, baudRate);
  const b = await openSerial(pathB, baudRate);
  return {
    a,
    b,
    pathA,
    pathB,
    async close() {
      await closeSerial(a);
      await closeSerial(b);
      socat.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves with the first event of that name (and its argument) within `ms`. */
export function next<T>(
  emitter: { once(e: string, f: (x: T) => void): unknown; off(e: string, f: (x: T) => void): unknown },
  event: string,
  ms = 3000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const on = (x: T) => {
      clearTimeout(t);
      resolve(x);
    };
    const t = setTimeout(() => {
      emitter.off(event, on);
      reject(new Error(`no '${event}' within ${ms} ms`));
    }, ms);
    emitter.once(event, on);
  });
}

/** Waits until `ok()` holds, checking every 10 ms, or fails after `ms`. */
export async function until(ok: () => boolean, ms = 3000, what = 'the condition'): Promise<void> {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`${what} did not hold within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
