// The reader tool's inputs and relays (scripts/reader.ts, issue 47): its own process on one end of a real
// pseudo-terminal pair, the controller's bus (edge/osdp/bus.ts) on the other, as the demo runs them. Typed commands
// move its inputs (the door contact on input 0, the exit button on input 1, any input to any OSDP 2.2 status value),
// which the bus hears as ISTATR; an OUT from the bus switches its relay, which it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from './bus.js';
import { ptyLinks } from './testkit.js';
import { closeSerial, openSerial } from './transport.js';

const ADDRESS = 7;
let proc: ChildProcess;
let bus: Bus;
let stopLine: () => Promise<void>;
const lines: Record<string, unknown>[] = [];
/** every ISTATR the bus heard from the reader, oldest first */
const heard: number[][] = [];

async function until<T>(what: string, f: () => T | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what} (${JSON.stringify(lines.slice(-5))}, heard ${JSON.stringify(heard)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const type = (s: string) => proc.stdin!.write(`${s}\n`);

beforeAll(async () => {
  const { pathA, pathB, socat, dir } = await ptyLinks();
  proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/reader.ts', '--tty', pathB, '--address', String(ADDRESS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  createInterface({ input: proc.stdout! }).on('line', (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
  await until('the reader started', () => lines.some((l) => 'reader' in l), 20_000);
  const port = await openSerial(pathA, 9600);
  bus = new Bus(port, { baudRate: 9600 });
  bus.on('inputs', ({ address, states }) => address === ADDRESS && heard.push(states));
  bus.add({ address: ADDRESS });
  bus.start();
  stopLine = async () => {
    await bus.stop();
    await closeSerial(port);
    socat.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  await until('the reader online', () => bus.reader(ADDRESS)?.state === 'online', 20_000);
}, 60_000);

afterAll(async () => {
  if (proc?.exitCode === null) proc.kill('SIGKILL');
  await stopLine?.();
});

describe('npm run reader: its inputs and relays', () => {
  it('starts with the contact closed and the exit button open (1, 0), as the controller reads them', async () => {
    await bus.inputStatus(ADDRESS);
    expect(await until('an ISTATR', () => heard.at(-1))).toEqual([1, 0]);
  });

  it('open and close move the door contact (input 0): its circuit open (0), closed (1)', async () => {
    const n = heard.length;
    type('open');
    expect(await until('the contact open heard', () => heard[n])).toEqual([0, 0]);
    type('close');
    expect(await until('the contact closed heard', () => heard[n + 1])).toEqual([1, 0]);
    expect(lines.filter((l) => 'inputs' in l).slice(-2)).toEqual([{ inputs: [0, 0] }, { inputs: [1, 0] }]);
  });

  it('exit presses the exit button (input 1) and releases it a second later', async () => {
    const n = heard.length;
    const at = Date.now();
    type('exit');
    expect(await until('pressed', () => heard[n])).toEqual([1, 1]);
    expect(await until('released', () => heard[n + 1], 5000)).toEqual([1, 0]);
    expect(Date.now() - at).toBeGreaterThanOrEqual(900);
  });

  it('i N V sets an input to any status value (a supervised line cut: 3); an input it lacks is refused, said', async () => {
    const n = heard.length;
    type('i 0 3');
    expect(await until('the line cut heard', () => heard[n])).toEqual([3, 0]);
    type('i 0 1');
    expect(await until('read right again', () => heard[n + 1])).toEqual([1, 0]);
    type('i 2 1');
    expect(await until('the refusal', () => lines.find((l) => 'error' in l))).toEqual({ error: 'the reader has no input 2' });
    expect(heard).toHaveLength(n + 2);
  });

  it('an OUT from the controller switches its relay, printed', async () => {
    await bus.output(ADDRESS, [{ output: 0, code: 2, timer: 0 }]);
    expect(await until('relay on', () => lines.find((l) => 'relays' in l))).toEqual({ relays: [1] });
    await bus.output(ADDRESS, [{ output: 0, code: 1, timer: 0 }]);
    await until('relay off', () => lines.filter((l) => 'relays' in l).length === 2);
    expect(lines.filter((l) => 'relays' in l).at(-1)).toEqual({ relays: [0] });
  });
});
