// Lock order (docs/ARCHITECTURE.md), read from the code of server/db/queries: a statement that writes several existing
// rows named by arrays locks them in an order fixed by their keys, not by its input, so two transactions at once naming
// the same rows in other orders never deadlock (server/db/lockOrder.test.ts shows it on the real database).
// - a multi-row upsert fed by unnest(...) takes its rows through inLockOrder (server/db/queries/lockOrder.ts);
// - an `update ... from unnest(...)` or `delete ... using unnest(...)` (locked in the order of its plan) has its rows locked
//   first in the same function by a `select ... order by <key> for update`;
// - a `select ... for update` of the rows named by an array (`= any(...)`, `unnest(...)`) says `order by`.
// A statement that needs neither carries its reason below, read in review.
// The catalogue's SQL (server/crud), built from the declarations, is read as TypeScript: a row it locks `for update`
// (not `for no key update`) says why in a comment `// lock for update: …` above the statement, and a loop that locks
// or writes a row per item goes through its items in the order of their keys (inLockOrder), or says why it need not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
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
// the doors: the event pipeline holds the doors whose statuses an edge batch moves, in id order, until it commits
// (edgeIngest.ts moveDoorStatuses); an update of doors not pinned to one (`id = $n`) locks them first in that order
const DOORS_UPDATE = /\bupdate\s+doors\b/i;
const ONE_DOOR = /\bwhere\s+(d\.)?id\s*=\s*\$\d/i;
const DOORS_LOCK = /\border\s+by\s+(d\.)?id\b[^`]*\bfor\s+(no\s+key\s+)?update\b/i;

function findings(files: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(files))
    for (const f of functionsOf(text)) {
      const where = `${file}:${f.name}`;
      const sqls = f.body.split('`');
      if (sqls.some((s) => ALARMS_UPDATE.test(s) && !ONE_ALARM.test(s)) && !reviewed[where] && !sqls.some((s) => ALARMS_LOCK.test(s)))
        out.push(`${where}: updates several alarms: lock them first by select ... order by event_id for update`);
      if (sqls.some((s) => DOORS_UPDATE.test(s) && !ONE_DOOR.test(s)) && !reviewed[where] && !sqls.some((s) => DOORS_LOCK.test(s)))
        out.push(`${where}: updates several doors: lock them first by select ... order by id for no key update`);
      if (sqls.some((s) => ARRAY_LOCK.test(s) && !ORDERED_LOCK.test(s)))
        out.push(`${where}: locks the rows an array names with no order by: lock them in the order of their key`);
      if (!sqls.some((s) => ARRAY_WRITE.some((r) => r.test(s))) || reviewed[where]) continue;
      if (!/\binLockOrder\s*\(/.test(f.body) && !sqls.some((s) => ORDERED_LOCK.test(s)))
        out.push(`${where}: writes the rows of arrays in the order given: inLockOrder, a select ... order by ... for update first, or a reviewed reason`);
    }
  return out;
}

/** The product files of `dir`, by name. */
const sourcesOf = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
const sources = () => sourcesOf(DIR);

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
    // the lockdown before 6117ec4: its doors updated in the plan's order, beside a batch holding some in id order
    const lockdown = now['doors.ts'].replace(/\n\s*order by id for no key update`/, '`');
    expect(findings({ 'doors.ts': lockdown })).toEqual([
      'doors.ts:setDivisionsLockdown: updates several doors: lock them first by select ... order by id for no key update',
    ]);
    // every reviewed reason names a function that still writes so
    for (const where of Object.keys(reviewed)) {
      const [file, name] = where.split(':');
      expect(functionsOf(now[file] ?? '').find((f) => f.name === name)?.body, `${where} is gone: drop its reason`).toMatch(/unnest|update alarms/);
    }
  });
});

const CRUD = 'server/crud';

/** file:the loop's items → why the rows it locks or writes one item at a time need no order */
const reviewedLoops: Record<string, string> = {
  'write.ts:Object.entries(fields)': "one statement per field, in the declaration's order: the same order in every transaction",
  'write.ts:rows': "a row's owned children, written only by an edit of that row, which holds the row locked first (rows.ts load)",
};

/** A SQL text's statement that locks or writes rows. */
const LOCKS_OR_WRITES = /\b(insert\s+into|update\s+\S+\s+set|delete\s+from)\b|\bfor\s+(no\s+key\s+)?update\b/i;
/** `for update` that is not `for no key update` */
const FOR_UPDATE = /(?<!\bno\s+key\s+)\bfor\s+update\b/i;

function crudFindings(files: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const at = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
    /** the consts of the file made by inLockOrder(...) */
    const ordered = new Set<string>();
    const visit = (n: ts.Node, f: (n: ts.Node) => void) => {
      f(n);
      n.forEachChild((c) => visit(c, f));
    };
    visit(sf, (n) => {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && /^inLockOrder\s*\(/.test(n.initializer.getText()))
        ordered.add(n.name.text);
    });
    visit(sf, (n) => {
      const literal = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n) ? n.getText() : null;
      if (literal !== null && FOR_UPDATE.test(literal)) {
        let statement: ts.Node = n;
        while (statement.parent && !ts.isBlock(statement.parent) && !ts.isSourceFile(statement.parent)) statement = statement.parent;
        const comments = (ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? []).map((c) => text.slice(c.pos, c.end)).join('\n');
        if (!/\/\/ lock for update:/.test(comments))
          out.push(`${at(n)}: locks for update: for no key update (an edit), or say why above it (// lock for update: …)`);
      }
      if (literal !== null && ARRAY_LOCK.test(literal) && !ORDERED_LOCK.test(literal))
        out.push(`${at(n)}: locks the rows an array names with no order by: lock them in the order of their key`);
      if (!ts.isCallExpression(n)) return;
      const callee = n.expression.getText();
      const lockedLoad = /(^|\.)load$/.test(callee) && n.arguments.length >= 4 && n.arguments[3].getText() !== 'false';
      const sqlWrite = /\.query$/.test(callee) && n.arguments.length > 0 && LOCKS_OR_WRITES.test(n.arguments[0].getText());
      if (!lockedLoad && !sqlWrite) return;
      // the innermost loop around it within its function
      let loop: ts.Node | undefined = n.parent;
      while (loop && !ts.isFunctionLike(loop) && !ts.isIterationStatement(loop, false)) loop = loop.parent;
      if (!loop || ts.isFunctionLike(loop)) return;
      const items = ts.isForOfStatement(loop) ? loop.expression.getText() : null;
      if (items !== null && (/^inLockOrder\s*\(/.test(items) || ordered.has(items) || reviewedLoops[`${file}:${items}`])) return;
      out.push(
        `${at(n)}: locks or writes a row per item of ${items ?? 'a loop'} in the loop's order: take the items through inLockOrder, or a reviewed reason`,
      );
    });
  }
  return out;
}

const crudSources = () => sourcesOf(CRUD);

describe('lock order in server/crud', () => {
  it('a row is locked for no key update unless a comment says why, and a loop locking rows goes through them in key order', () => {
    expect(crudFindings(crudSources())).toEqual([]);
  });

  it('the check sees what it is about (on the code as it is, and on the old forms)', () => {
    const now = crudSources();
    // an edit's lock for update, as rows.ts locked it before 5401f3f
    const edit = now['rows.ts'].replace('const edited = ` for no key update of t`;', 'const edited = ` for update of t`;');
    expect(edit).not.toBe(now['rows.ts']);
    expect(crudFindings({ 'rows.ts': edit })).toEqual([expect.stringMatching(/^rows\.ts:\d+: locks for update: for no key update/)]);
    // the delete's lock, its reason taken away
    expect(crudFindings({ 'rows.ts': now['rows.ts'].replace('// lock for update:', '// for delete:') })).toHaveLength(1);
    // the bulk delete's rows in the order of the request
    const request = now['delete.ts'].replace('inLockOrder(new Set(ids), (id) => id)', '[...new Set(ids)]');
    expect(request).not.toBe(now['delete.ts']);
    expect(crudFindings({ 'delete.ts': request })).toEqual([
      expect.stringMatching(/^delete\.ts:\d+: locks or writes a row per item of unique in the loop's order/),
    ]);
    // an edit's links in the order of the request
    const links = now['write.ts'].replace('inLockOrder(want, (x) => x)', 'want');
    expect(links).not.toBe(now['write.ts']);
    expect(crudFindings({ 'write.ts': links })).toEqual([expect.stringMatching(/^write\.ts:\d+: locks or writes a row per item of want in the loop's order/)]);
    // every reviewed loop is still there
    for (const where of Object.keys(reviewedLoops)) {
      const [file, items] = where.split(':');
      expect(now[file], `${where} is gone: drop its reason`).toContain(` of ${items})`);
    }
  });
});
