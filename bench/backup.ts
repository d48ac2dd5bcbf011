// Issue 45: `/api/health` answers within 100 ms while a backup of the embedded database is taken. The real server over
// PGlite in a temp DATA_DIR with the demo data; health is asked back to back while backups are taken through the REST
// route (the data directory copied while statements wait, then packed and compressed as a stream), and the same while
// PGlite's own dump (what a backup was before: every file read and packed on the event loop) runs, as the reference of
// the same run. Also the event loop's longest stall in each. Target: health's slowest answer during a backup < 100 ms.
// `npm run bench -- backup`.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API } from '../contract';
import { benchDb, benchServer, summary, writeResult } from './lib';

const ROUNDS = 3;
const TARGET_MS = 100;

async function healthWhile(base: string, work: () => Promise<unknown>) {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let done = false;
  const took: number[] = [];
  const running = work().finally(() => (done = true));
  while (!done) {
    const t = performance.now();
    const r = await fetch(`${base}${API.health}`);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`health answered ${r.status} during a backup`);
    took.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20)); // a monitor's pace, not a flood competing with the backup
  }
  await running;
  loop.disable();
  return { took, stallMs: loop.max / 1e6 };
}

export async function backupBench() {
  const lite = await benchDb();
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-backups-'));
  const server = await benchServer(lite.db, { backups: { dir, restart: () => {} } });
  try {
    const token = await server.login('admin');
    const now: number[] = [];
    const before: number[] = [];
    let stallNow = 0;
    let stallBefore = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const a = await healthWhile(server.base, async () => {
        const r = await fetch(`${server.base}${API.backups}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
        if (r.status !== 201) throw new Error(`backup answered ${r.status}: ${await r.text()}`);
      });
      now.push(...a.took);
      stallNow = Math.max(stallNow, a.stallMs);
      const b = await healthWhile(server.base, async () => lite.db.dump!('none'));
      before.push(...b.took);
      stallBefore = Math.max(stallBefore, b.stallMs);
    }
    const healthMs = summary(now);
    const referenceMs = summary(before);
    return writeResult('backup', {
      target: `health's slowest answer while a backup is taken < ${TARGET_MS} ms`,
      rounds: ROUNDS,
      healthDuringBackupMs: healthMs,
      eventLoopStallDuringBackupMs: Math.round(stallNow),
      reference: {
        what: "PGlite's own dump of the same directory (the backup before issue 45)",
        healthMs: referenceMs,
        eventLoopStallMs: Math.round(stallBefore),
      },
      stallRatio: Number((stallNow / Math.max(1, stallBefore)).toFixed(2)),
      met: healthMs.max < TARGET_MS,
    });
  } finally {
    await server.close();
    await lite.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
