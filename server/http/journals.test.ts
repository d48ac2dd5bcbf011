// Session replay on the server (issue 4), over real HTTP against a real database: a session appends NDJSON chunks
// to its own recording (idempotent by seq, redacted again, validated line by line: a bad line is a 400 naming it and
// stores nothing), within size limits and only from the session that started it; auditors holding 0.8.2.0 list and
// open their client's recordings (audited), nobody else's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  JOURNAL_CHUNK_MAX_BYTES,
  JOURNAL_LINE_MAX_BYTES,
  JOURNAL_MAX_BYTES,
  journalHeader,
  parseJournal,
  redact,
  type JournalEntry,
} from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let operator: string, auditor: string, reception: string, harbour: string, admin: string;
const header = journalHeader(1_714_550_400_000);

beforeAll(async () => {
  s = await startTestServer();
  [operator, auditor, reception, harbour, admin] = await Promise.all(['operator', 'auditor', 'reception', 'harbour', 'admin'].map((u) => s.login(u)));
});
afterAll(async () => {
  await s?.close();
});

const entry = (seq: number, event: Record<string, unknown> = { type: 'route.visited', path: `/step/${seq}` }): JournalEntry =>
  ({
    seq,
    at: header.startedAt + seq,
    actor: seq === 1 ? '#root' : 'tabs',
    event: seq === 1 ? { type: 'xstate.init', input: {} } : event,
    state: { step: seq },
  }) as JournalEntry;
const ndjson = (entries: unknown[], h: unknown = header) => [h, ...entries].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
let n = 0;
const recordingId = () => `rec-${Date.now()}-${++n}-abcdef`;

async function upload(token: string | null, recording: string, text: string, contentType = 'application/x-ndjson') {
  const res = await fetch(`${s.base}${API.sessionJournals}/${recording}`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: text,
  });
  const body = await res.json().catch(() => null);
  return { status: res.status, body };
}
const stored = (recording: string) =>
  s.count('select 1 from session_journal_entries e join session_journals j on j.id = e.journal_id where j.recording = $1', [recording]);
const journals = (recording: string) => s.count('select 1 from session_journals where recording = $1', [recording]);

describe('uploading chunks', () => {
  it("appends chunks to the session's recording and keeps each seq once, so a retry adds nothing", async () => {
    const rec = recordingId();
    const first = await upload(operator, rec, ndjson([entry(1), entry(2), entry(3)]));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ entries: 3, accepted: 3, through: 3 });
    const retry = await upload(operator, rec, ndjson([entry(1), entry(2), entry(3)]));
    expect(retry.body).toMatchObject({ entries: 3, accepted: 0, through: 3, bytes: first.body.bytes });
    const overlap = await upload(operator, rec, ndjson([entry(3), entry(4), entry(6)]));
    expect(overlap.body).toMatchObject({ entries: 5, accepted: 2, through: 6 });
    expect(await stored(rec)).toBe(5);
    const row = (await s.db.query<any>(`select j.*, u.username from session_journals j join users u on u.id = j.user_id where recording = $1`, [rec])).rows[0];
    expect(row).toMatchObject({ username: 'operator', entries: 5, first_seq: 1, last_seq: 6 });
    expect(Number(row.bytes)).toBeGreaterThan(0);
    // the row names the uploading session
    expect(await s.count('select 1 from sessions where jti = $1', [row.jti])).toBe(1);
  });

  it('redacts secrets again on the server, whatever the console sent', async () => {
    const rec = recordingId();
    const r = await upload(operator, rec, ndjson([entry(1), entry(2, { type: 'session.signIn', username: 'operator', password: 'Gatehouse1!' })]));
    expect(r.status).toBe(200);
    const lines = (
      await s.db.query<{ line: string }>('select line from session_journal_entries e join session_journals j on j.id = e.journal_id where recording = $1', [
        rec,
      ])
    ).rows
      .map((x) => x.line)
      .join('\n');
    expect(lines).not.toContain('Gatehouse1!');
    expect(lines).toContain('[redacted]');
  });

  const bad: Array<[string, string, RegExp, string]> = [
    ['a line that is not JSON', ndjson([entry(1), '{"seq":2,', entry(3)]), /line 3 is not valid JSON/, 'line 3'],
    ['a truncated last line', ndjson([entry(1), entry(2)]).slice(0, -12), /line 3 is not valid JSON \(the file looks truncated\)/, 'line 3'],
    [
      'an entry without a state',
      ndjson([entry(1), { seq: 2, at: 1, actor: 'tabs', event: { type: 'x' } }]),
      /line 3 is not a journal entry: state/,
      'line 3.state',
    ],
    ['seqs out of order', ndjson([entry(2), entry(1)]), /line 3 has seq 1, not after the previous line's 2/, 'line 3.seq'],
    ['no header', ndjson([entry(2)], entry(1)), /line 1 is not a gatehouse-journal header/, 'line 1.kind'],
    ['a header without entries', ndjson([]), /no entries/, 'line 2'],
  ];
  for (const [what, text, message, field] of bad) {
    it(`refuses ${what} with a 400 naming the line, and stores nothing`, async () => {
      const rec = recordingId();
      const r = await upload(operator, rec, text);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(message);
      expect(r.body.violations[0].field).toBe(field);
      expect(await journals(rec)).toBe(0);
    });
  }

  // issue 27: these answered 500 (a timestamp or integer column overflowed, a text column refused NUL)
  const hostile: Array<[string, string, string]> = [
    ['a start time of 1e308', ndjson([entry(1)], { ...header, startedAt: 1e308 }), 'line 1.startedAt'],
    ['a start time of -1e308', ndjson([entry(1)], { ...header, startedAt: -1e308 }), 'line 1.startedAt'],
    ['a start time before 1970', ndjson([entry(1)], { ...header, startedAt: -1 }), 'line 1.startedAt'],
    ['a start time written as text', ndjson([entry(1)], { ...header, startedAt: 'NaN' }), 'line 1.startedAt'],
    ['an app name with NUL', ndjson([entry(1)], { ...header, app: '1.0\u0000' }), 'line 1.app'],
    ['an app name with a lone surrogate', ndjson([entry(1)], { ...header, app: '1.0\uD800' }), 'line 1.app'],
    ['a seq of 2^31', ndjson([entry(1), entry(2), { ...entry(3), seq: 2 ** 31 }]), 'line 4.seq'],
    ['a seq of 2^53+1', ndjson([entry(1), entry(2), '{"seq":9007199254740993,"at":1,"actor":"tabs","event":{"type":"x"},"state":{}}']), 'line 4.seq'],
    ['a seq of 1e308', ndjson([entry(1), entry(2), { ...entry(3), seq: 1e308 }]), 'line 4.seq'],
    ['a seq that is not positive', ndjson([{ ...entry(1), seq: -5 }]), 'line 2.seq'],
    ['a time of 1e308', ndjson([entry(1), { ...entry(2), at: 1e308 }]), 'line 3.at'],
    ['an actor with NUL', ndjson([entry(1), { ...entry(2), actor: 'tabs\u0000' }]), 'line 3.actor'],
    ['NUL deep in a state', ndjson([entry(1), { ...entry(2), state: { form: { fields: ['ok', 'bad\u0000'] } } }]), 'line 3.state.form.fields.1'],
    ['a lone surrogate in an event payload', ndjson([entry(1), entry(2, { type: 'typed', text: 'x\uDC00' })]), 'line 3.event.text'],
    ['a huge number in an event payload', ndjson([entry(1), entry(2, { type: 'moved', to: { x: 1e308 } })]), 'line 3.event.to.x'],
    ['a state nested past its depth', ndjson([entry(1), { ...entry(2), state: JSON.parse('['.repeat(40) + ']'.repeat(40)) }]), 'line 3.state'],
  ];
  for (const [what, text, field] of hostile) {
    it(`refuses ${what} with a 400 naming the field, and stores nothing`, async () => {
      const rec = recordingId();
      const r = await upload(operator, rec, text);
      expect(r.status).toBe(400);
      const fields: string[] = r.body.violations.map((v: { field: string }) => v.field);
      expect(
        fields.some((f) => f === field || f.startsWith(`${field}.`)),
        fields.join(', '),
      ).toBe(true);
      expect(await journals(rec)).toBe(0);
    });
  }

  it('takes what the console records of hostile input: its redaction makes the line one the server accepts', async () => {
    const rec = recordingId();
    const typed = entry(2, { type: 'search.typed', text: 'nul\u0000 lone\uD800 esc\u001b', huge: 1e308, ['key\u0000']: 2 ** 53 + 1 });
    const text = [JSON.stringify(header), ...[entry(1), typed].map((e) => JSON.stringify(redact(e)))].join('\n') + '\n';
    const r = await upload(operator, rec, text);
    expect(r.status).toBe(200);
    const line = (
      await s.db.query<{ line: string }>(
        'select line from session_journal_entries e join session_journals j on j.id = e.journal_id where recording = $1 and seq = 2',
        [rec],
      )
    ).rows[0].line;
    expect(JSON.parse(line).event).toEqual({ type: 'search.typed', text: 'nul\uFFFD lone\uFFFD esc\uFFFD', huge: '1e+308', ['key\uFFFD']: '9007199254740992' });
  });

  it('stores nothing of a bad chunk sent to an existing recording', async () => {
    const rec = recordingId();
    await upload(operator, rec, ndjson([entry(1)]));
    const r = await upload(operator, rec, ndjson([entry(2), entry(3), '{oops']));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/line 4/);
    expect(await stored(rec)).toBe(1);
  });

  it('refuses a line over the line limit, a chunk over the chunk limit and a header that differs', async () => {
    const rec = recordingId();
    const long = await upload(operator, rec, ndjson([entry(1), entry(2, { type: 'big', blob: 'x'.repeat(JOURNAL_LINE_MAX_BYTES) })]));
    expect(long.status).toBe(400);
    expect(long.body.violations[0].field).toBe('line 3');
    const lines = Array.from({ length: 6 }, (_, i) => entry(i + 1, { type: 'big', blob: 'y'.repeat(JOURNAL_LINE_MAX_BYTES - 200) }));
    const huge = await upload(operator, rec, ndjson(lines));
    expect(ndjson(lines).length).toBeGreaterThan(JOURNAL_CHUNK_MAX_BYTES);
    expect(huge.status).toBe(413);
    expect(await journals(rec)).toBe(0);
    await upload(operator, rec, ndjson([entry(1)]));
    const other = await upload(operator, rec, ndjson([entry(2)], journalHeader(header.startedAt + 1)));
    expect(other.status).toBe(409);
    expect(await stored(rec)).toBe(1);
  });

  it('refuses the chunk that would take a recording over its size limit, whole', async () => {
    const rec = recordingId();
    const blob = 'z'.repeat(JOURNAL_LINE_MAX_BYTES - 300);
    let seq = 0;
    let last = { status: 200, body: null as any };
    let before = 0;
    for (let i = 0; i < 20 && last.status === 200; i++) {
      before = await stored(rec);
      last = await upload(operator, rec, ndjson(Array.from({ length: 4 }, () => entry(++seq, { type: 'big', blob }))));
    }
    expect(last.status).toBe(413);
    expect(last.body.message).toMatch(/would exceed 16777216 bytes/);
    expect(await stored(rec)).toBe(before);
    const row = (await s.db.query<{ bytes: string }>('select bytes from session_journals where recording = $1', [rec])).rows[0];
    expect(Number(row.bytes)).toBeLessThanOrEqual(JOURNAL_MAX_BYTES);
  });

  it('refuses a recording id that is not one, a JSON body, and an upload without a token', async () => {
    expect((await upload(operator, 'x', ndjson([entry(1)]))).status).toBe(400);
    const json = await fetch(`${s.base}${API.sessionJournals}/${recordingId()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${operator}` },
      body: '{"a":1}',
    });
    expect(json.status).toBe(415);
    expect((await upload(null, recordingId(), ndjson([entry(1)]))).status).toBe(401);
    // an administrator who has not picked a client has no tenant to record into
    expect((await upload(admin, recordingId(), ndjson([entry(1)]))).status).toBe(403);
  });

  it('lets only the session that started a recording append to it: to another session, user or tenant it is not found', async () => {
    const rec = recordingId();
    await upload(operator, rec, ndjson([entry(1)]));
    const secondSession = await s.login('operator');
    for (const token of [secondSession, auditor, harbour]) {
      const r = await upload(token, rec, ndjson([entry(2)]));
      expect(r.status).toBe(404);
      expect(r.body.message).toBe('Recording not found');
    }
    expect(await stored(rec)).toBe(1);
  });
});

describe('auditors reading recordings', () => {
  let rec: string;
  let id: number;
  beforeAll(async () => {
    rec = recordingId();
    await upload(operator, rec, ndjson([entry(1), entry(2)]));
    await upload(operator, rec, ndjson([entry(3)]));
    id = Number((await s.db.query<{ id: number }>('select id from session_journals where recording = $1', [rec])).rows[0].id);
  });

  it("lists the client's recordings with user, start, entries and size for 0.8.2.0 holders", async () => {
    const r = await s.call('GET', `${API.sessionJournals}?size=100`, { token: auditor });
    expect(r.status).toBe(200);
    const item = r.body.items.find((i: any) => i.id === id);
    expect(item).toMatchObject({
      username: 'operator',
      entries: 3,
      ended: false,
      firstSeq: 1,
      lastSeq: 3,
      startedAt: new Date(header.startedAt).toISOString(),
    });
    expect(item.bytes).toBeGreaterThan(0);
  });

  it('opens one as NDJSON that parses as the journal it was, in seq order', async () => {
    const res = await fetch(`${s.base}${API.sessionJournals}/${id}`, { headers: { authorization: `Bearer ${auditor}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const parsed = parseJournal(await res.text());
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.journal.header).toEqual(header);
    expect(parsed.journal.lines.map((l) => l.entry.seq)).toEqual([1, 2, 3]);
  });

  it('audits every list and every opening', async () => {
    const before = await s.count(`select 1 from audit_log where entity = 'session-journal' and action = 'view' and entity_id = $1 and actor = 'auditor'`, [
      String(id),
    ]);
    await fetch(`${s.base}${API.sessionJournals}/${id}`, { headers: { authorization: `Bearer ${auditor}` } });
    expect(
      await s.count(`select 1 from audit_log where entity = 'session-journal' and action = 'view' and entity_id = $1 and actor = 'auditor'`, [String(id)]),
    ).toBe(before + 1);
    expect(await s.count(`select 1 from audit_log where entity = 'session-journal' and action = 'list' and actor = 'auditor'`)).toBeGreaterThan(0);
  });

  it("refuses users without 0.8.2.0, and never shows one tenant's recordings to another", async () => {
    for (const token of [operator, reception]) {
      expect((await s.call('GET', API.sessionJournals, { token })).status).toBe(403);
      expect((await s.call('GET', `${API.sessionJournals}/${id}`, { token })).status).toBe(403);
    }
    const other = await s.call('GET', `${API.sessionJournals}?size=100`, { token: harbour });
    expect(other.status).toBe(200);
    expect(other.body.items.map((i: any) => i.id)).not.toContain(id);
    expect((await s.call('GET', `${API.sessionJournals}/${id}`, { token: harbour })).status).toBe(404);
    expect((await s.call('GET', `${API.sessionJournals}/999999`, { token: auditor })).status).toBe(404);
  });

  it('marks a recording ended once its session signed out', async () => {
    const token = await s.login('operator');
    const r2 = recordingId();
    await upload(token, r2, ndjson([entry(1)]));
    await s.call('POST', API.logout, { token, body: {} });
    const list = await s.call('GET', `${API.sessionJournals}?size=100`, { token: auditor });
    const item = list.body.items.find((i: any) => i.entries === 1 && i.username === 'operator' && i.ended);
    expect(item).toBeTruthy();
  });
});
