// Lock order (docs/ARCHITECTURE.md), read from the code of server/db/queries: a statement that writes several existing
// rows named by arrays locks them in an order fixed by their keys, not by its input, so two transactions at once naming
// the same rows in other orders never deadlock (server/db/lockOrder.test.ts shows it on the real database).
// - a multi-row upsert fed by unnest(...) takes its rows through inLockOrder (server/db/queries/lockOrder.ts);
// - an `update ... from unnest(...)` or `delete ... using unnest(...)` (locked in the order of its plan) has its rows locked
//   first in the same function by a `select ... order by <key> for update`;
// - a `select ... for update` of the rows named by an array (`= any(...)`, `unnest(...)`) says `order by`.
// A statement that needs neither carries its reason below, read in review.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = 'server/db/queries';

/** file:function → why two transactions never lock its rows in opposite orders */
const reviewed: Record<string, string> = {
  'pipeline.ts:shelveRaisedAlarms': 'the alarms its own transaction inserted: no other transaction sees them, let alone locks them',
  'pipeline.ts:passEdgeAhead':
    "a controller's numbers stored ahead are deleted only by the transaction that holds its edge_controllers row, locked before in controller order (advanceEdgeSeqs)",
};

/** The top-level functions of a module: name and text (to the next one). */
function functionsOf(text: string): { name: string; body: string }[] {
  const starts = [...text.matchAll(/^(?:export )?(?:async )?function\s+(\w+)/gm)];
  return starts.map((m, i) => ({ name: m[1], body: text.slice(m.index, starts[i + 1]?.index ?? text.length) }));
}

// within one SQL text (no backtick crossed)
const ARRAY_WRITE = [
  /\binsert\s+into\b[^`]*\bunnest\s*\([^`]*\bon\s+conflict\b[^`]*\bdo\s+update\b/i,
  /\bupdate\s+\w+(\s+\w+)?\s+set\b[^`]*\bfrom\s+(rows\s+from\s*\(\s*)?unnest\s*\(/i,
  /\bdelete\s+from\b[^`]*\busing\s+unnest\s*\(/i,
];
const ORDERED_LOCK = /\border\s+by\b[^`]*\bfor\s+(no\s+key\s+)?update\b/i;
const ARRAY_LOCK = /(=\s*any\s*\(|\bunnest\s*\()[^`]*\bfor\s+(no\s+key\s+)?update\b(?![^`]*\bskip\s+locked)/i;

// the alarms: the event pipeline, the operators and the clocks write a point's alarms at once; an update of alarms
// not pinned to one (`event_id = $n`) locks them first in the order of their ids
const ALARMS_UPDATE = /\bupdate\s+alarms\b/i;
const ONE_ALARM = /\bwhere\s+(a\.)?event_id\s*=\s*\$\d/i;
const ALARMS_LOCK = /\border\s+by\s+(a\.)?event_id\b[^`]*\bfor\s+(no\s+key\s+)?update\b/i;

function findings(files: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(files))
    for (const f of functionsOf(text)) {
      const where = `${file}:${f.name}`;
      const sqls = f.body.split('`');
      if (sqls.some((s) => ALARMS_UPDATE.test(s) && !ONE_ALARM.test(s)) && !reviewed[where] && !sqls.some((s) => ALARMS_LOCK.test(s)))
        out.push(`${where}: updates several alarms: lock them first by select ... order by event_id for update`);
      if (sqls.some((s) => ARRAY_LOCK.test(s) && !ORDERED_LOCK.test(s)))
        out.push(`${where}: locks the rows an array names with no order by: lock them in the order of their key`);
      if (!sqls.some((s) => ARRAY_WRITE.some((r) => r.test(s))) || reviewed[where]) continue;
      if (!/\binLockOrder\s*\(/.test(f.body) && !sqls.some((s) => ORDERED_LOCK.test(s)))
        out.push(`${where}: writes the rows of arrays in the order given: inLockOrder, a select ... order by ... for update first, or a reviewed reason`);
    }
  return out;
}

const sources = () =>
  Object.fromEntries(
    readdirSync(DIR)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => [f, readFileSync(join(DIR, f), 'utf8')]),
  );

describe('lock order in server/db/queries', () => {
  it('every multi-row write fed by arrays locks its rows in the order of their keys (or says why it need not)', () => {
    expect(findings(sources())).toEqual([]);
  });

  it('the check sees what it is about (on the code as it is, and on the old orders)', () => {
    const now = sources();
    const all = Object.values(now).join('\n');
    // the statements it holds are there: a check over nothing would pass
    expect(all).toMatch(ARRAY_WRITE[0]);
    expect(all).toMatch(ARRAY_WRITE[1]);
    expect(findings({ 'x.ts': now['edgeIngest.ts'].replace(/inLockOrder\(latest\.keys\(\), \(i\) => i\)/, '[...latest.keys()]') })).toEqual([
      'x.ts:movePresence: writes the rows of arrays in the order given: inLockOrder, a select ... order by ... for update first, or a reviewed reason',
    ]);
    const unlocked = now['pipeline.ts'].replace(/ order by a\.event_id for update of a/, '');
    expect(findings({ 'pipeline.ts': unlocked })).toEqual([
      'pipeline.ts:processClearedPoints: updates several alarms: lock them first by select ... order by event_id for update',
      'pipeline.ts:processClearedPoints: writes the rows of arrays in the order given: inLockOrder, a select ... order by ... for update first, or a reviewed reason',
    ]);
    expect(findings({ 'monitor.ts': now['monitor.ts'].replace(/ order by event_id for update`/, '`') })).toEqual([
      'monitor.ts:processPointAlarms: updates several alarms: lock them first by select ... order by event_id for update',
    ]);
    expect(findings({ 'batch.ts': now['batch.ts'].replace(/ order by id for no key update/, ' for no key update') })).toEqual([
      'batch.ts:lockIdentitiesByEmployeeNo: locks the rows an array names with no order by: lock them in the order of their key',
    ]);
    const unordered = now['alarmManagement.ts'].replace(/ order by event_id for update`/g, '`');
    expect(findings({ 'alarmManagement.ts': unordered })).toEqual([
      'alarmManagement.ts:unshelveShelvingAlarms: updates several alarms: lock them first by select ... order by event_id for update',
      'alarmManagement.ts:shelveAlarms: updates several alarms: lock them first by select ... order by event_id for update',
    ]);
    // every reviewed reason names a function that still writes so
    for (const where of Object.keys(reviewed)) {
      const [file, name] = where.split(':');
      expect(functionsOf(now[file] ?? '').find((f) => f.name === name)?.body, `${where} is gone: drop its reason`).toMatch(/unnest|update alarms/);
    }
  });
});
