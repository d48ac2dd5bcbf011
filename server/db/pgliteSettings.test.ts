// The embedded engine's memory settings (issue 13): PostgreSQL's defaults are for a machine of its own; PGlite's
// memory never shrinks, so the server starts it with smaller buffers, and PGLITE_SETTINGS can change them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite, pgliteStartParams } from './db';

describe('PGlite settings', () => {
  it('start with shared_buffers 32MB and maintenance_work_mem 16MB, after a new data directory was created and opened again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pglite-'));
    const db = await openPglite(join(dir, 'data'));
    try {
      expect((await db.query<{ shared_buffers: string }>('show shared_buffers')).rows[0].shared_buffers).toBe('32MB');
      expect((await db.query<{ maintenance_work_mem: string }>('show maintenance_work_mem')).rows[0].maintenance_work_mem).toBe('16MB');
      await db.exec('create table kept (x int); insert into kept values (1)');
    } finally {
      await db.close();
    }
    const again = await openPglite(join(dir, 'data'));
    try {
      expect((await again.query<{ x: number }>('select x from kept')).rows).toEqual([{ x: 1 }]);
    } finally {
      await again.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('take overrides from PGLITE_SETTINGS and ignore what is not a setting', () => {
    const p = pgliteStartParams('shared_buffers=64MB, work_mem=8MB,bad name=1,=2');
    const settings = p.flatMap((x, i) => (p[i - 1] === '-c' ? [x] : []));
    expect(settings).toContain('shared_buffers=64MB');
    expect(settings).toContain('work_mem=8MB');
    expect(settings).toContain('maintenance_work_mem=16MB');
    expect(settings.some((x) => x.startsWith('bad') || x.startsWith('='))).toBe(false);
    expect(p).toContain('--single'); // PGlite's own start parameters stay
  });
});
