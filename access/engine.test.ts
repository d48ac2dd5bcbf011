// The access-decision engine (issue 12), as properties over generated configurations and swipes: schedules across
// midnight and daylight-saving changes (checked against date-fns-tz as an independent oracle), special dates over
// schedules, anti-passback sequences, interlocks, card formats; then each reason once, with its chain.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { formatInTimeZone } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import { DECISION_LABELS, DECISION_REASONS, type DecisionStep } from '../contract/decision';
import { STANDARD_FORMATS, decode, decodeWith, encode, formatViolations, type CardFormat } from '../contract/cardFormat';
import { localTime, minuteOf } from './clock';
import {
  EMPTY_STATE,
  afterGrant,
  decide as decideOnce,
  decisionMessage,
  forgive,
  overrideAt,
  qrCode,
  qrWindow,
  threatAt,
  type AccessGroupFact,
  type AccessIndex,
  type CredentialFact,
  type DoorFact,
  type IdentityFact,
  type SwipeRequest,
  type ZoneState,
} from './engine';
import { SpecialCalendar, scheduleOpen, scheduleViolations, type Schedule, type SpecialDate, type WeeklyWindow } from './schedule';

const ZONES = ['Asia/Kuala_Lumpur', 'America/New_York', 'Europe/London', 'Australia/Adelaide', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham'];
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const at = (iso: string) => Date.parse(iso);
/** A step's words (its key and values are read where they are said: src/i18n/i18n.test.ts) */
const words = (s: DecisionStep | undefined) => s && { check: s.check, ok: s.ok, detail: s.detail };

// an independent oracle for the local clock
function oracle(instant: number, zone: string) {
  const [date, hm, dow] = formatInTimeZone(instant, zone, 'yyyy-MM-dd|HH:mm|i').split('|');
  const [h, m] = hm.split(':').map(Number);
  return { date, minute: h * 60 + m, weekday: Number(dow) % 7 };
}

describe('the local clock', () => {
  it('agrees with date-fns-tz for any instant in any zone, daylight-saving days included', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.constantFrom(...ZONES), (instant, zone) => {
        const t = localTime(instant, zone);
        const o = oracle(instant, zone);
        expect({ date: t.date, minute: t.minute, weekday: t.weekday }).toEqual(o);
      }),
      { numRuns: 3000 },
    );
  });
  it('maps the repeated hour of a daylight-saving end to two instants an hour apart with the same local time', () => {
    // New York, 2026-11-01: 01:30 happens at 05:30Z (EDT) and 06:30Z (EST)
    expect(localTime(at('2026-11-01T05:30:00Z'), 'America/New_York')).toMatchObject({ date: '2026-11-01', minute: 90 });
    expect(localTime(at('2026-11-01T06:30:00Z'), 'America/New_York')).toMatchObject({ date: '2026-11-01', minute: 90 });
    // and the skipped hour of its start: 06:59Z is 01:59 EST, 07:00Z is 03:00 EDT
    expect(localTime(at('2026-03-08T06:59:00Z'), 'America/New_York').minute).toBe(1 * 60 + 59);
    expect(localTime(at('2026-03-08T07:00:00Z'), 'America/New_York').minute).toBe(3 * 60);
  });
  it('reads times of day strictly', () => {
    expect(minuteOf('00:00')).toBe(0);
    expect(minuteOf('24:00')).toBe(1440);
    for (const bad of ['24:01', '7:00', '12:60', '25:00', '', 'ab:cd']) expect(minuteOf(bad)).toBeNaN();
  });
});

// ---------- schedules ----------
const windowArb = fc.record({
  day: fc.integer({ min: 0, max: 6 }),
  start: fc.integer({ min: 0, max: 1439 }),
  length: fc.integer({ min: 1, max: 1439 }),
});

/** The oracle of a weekly window: minute-of-week ranges, wrapping past midnight and past the end of the week. */
function windowCovers(w: { day: number; start: number; length: number }, weekday: number, minute: number) {
  const week = 7 * 1440;
  const from = w.day * 1440 + w.start;
  const m = weekday * 1440 + minute;
  return (((m - from) % week) + week) % week < w.length;
}

describe('schedules', () => {
  it('are open exactly within their windows, across midnight and the end of the week, in the tenant zone', () => {
    fc.assert(
      fc.property(windowArb, fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) }), fc.constantFrom(...ZONES), (w, instant, zone) => {
        const end = (w.start + w.length) % 1440;
        const window: WeeklyWindow = { day: w.day, start: hhmm(w.start), end: end === 0 ? '24:00' : hhmm(end) };
        const schedule: Schedule = { id: 1, name: 'S', windows: [window], special: {} };
        const o = oracle(instant, zone);
        const answer = scheduleOpen(schedule, localTime(instant, zone), null);
        expect(answer.open).toBe(windowCovers(w, o.weekday, o.minute));
      }),
      { numRuns: 3000 },
    );
  });

  it('a window that ends at 18:00 lets in at 17:59 and not at 18:00 or 18:01, also on a daylight-saving day', () => {
    const s: Schedule = { id: 1, name: 'Office hours', windows: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '08:00', end: '18:00' })), special: {} };
    // 2026-03-29 is the day London moves to BST: 17:59 BST is 16:59Z
    expect(scheduleOpen(s, localTime(at('2026-03-29T16:59:00Z'), 'Europe/London'), null).open).toBe(true);
    expect(scheduleOpen(s, localTime(at('2026-03-29T17:00:00Z'), 'Europe/London'), null).open).toBe(false);
    const after = scheduleOpen(s, localTime(at('2026-03-29T17:01:00Z'), 'Europe/London'), null);
    expect(after).toMatchObject({ open: false, reason: 'outside-schedule' });
  });

  it('special dates override the weekly windows: closed unless the schedule names the kind of day', () => {
    fc.assert(
      fc.property(
        fc.array(windowArb, { maxLength: 4 }),
        fc.integer({ min: 0, max: 1439 }),
        fc.boolean(),
        fc.option(fc.array(fc.record({ start: fc.integer({ min: 0, max: 1438 }), length: fc.integer({ min: 1, max: 600 }) }), { maxLength: 2 })),
        (ws, minute, yearly, halfDay) => {
          const windows = ws.map((w) => ({ day: w.day, start: hhmm(w.start), end: hhmm((w.start + w.length) % 1440) }));
          const special: Schedule['special'] = halfDay
            ? { 'half-day': halfDay.map((x) => ({ start: hhmm(x.start), end: hhmm(Math.min(1440, x.start + x.length)) })) }
            : {};
          const schedule: Schedule = { id: 1, name: 'S', windows, special };
          const day: SpecialDate = { date: '2026-12-25', yearly, kind: halfDay ? 'half-day' : 'holiday', name: 'Christmas' };
          const t = { date: yearly ? '2031-12-25' : '2026-12-25', monthDay: '12-25', weekday: 5, minute };
          const cal = new SpecialCalendar([day]);
          const a = scheduleOpen(schedule, t, cal.on(t));
          const expected = halfDay ? halfDay.some((x) => minute >= x.start && minute < Math.min(1440, x.start + x.length)) : false;
          expect(a.open).toBe(expected);
          if (!a.open) expect(a.reason).toBe('special-day');
        },
      ),
      { numRuns: 1000 },
    );
    // a one-off date matches only its year
    const cal = new SpecialCalendar([{ date: '2026-05-01', yearly: false, kind: 'holiday', name: 'Labour Day' }]);
    expect(cal.on({ date: '2027-05-01', monthDay: '05-01', weekday: 6, minute: 600 })).toBeNull();
  });

  it('refuses inverted, empty, out-of-range and overlapping windows, naming the field', () => {
    expect(scheduleViolations([{ day: 1, start: '08:00', end: '08:00' }], {})).toEqual([
      { field: 'windows.0.end', message: 'must not be the same as the start' },
    ]);
    expect(
      scheduleViolations(
        [
          { day: 1, start: '08:00', end: '12:00' },
          { day: 1, start: '11:00', end: '13:00' },
        ],
        {},
      ),
    ).toEqual([{ field: 'windows.1.start', message: 'overlaps window 1' }]);
    // Saturday night past midnight into Sunday morning
    expect(
      scheduleViolations(
        [
          { day: 0, start: '01:00', end: '05:00' },
          { day: 6, start: '22:00', end: '02:00' },
        ],
        {},
      ),
    ).toEqual([{ field: 'windows.1.start', message: 'overlaps window 1' }]);
    expect(scheduleViolations([{ day: 7, start: '25:00', end: '9' }], {}).map((v) => v.field)).toEqual(['windows.0.day', 'windows.0.start', 'windows.0.end']);
    expect(scheduleViolations([], { holiday: [{ start: '12:00', end: '10:00' }] })).toEqual([
      { field: 'special.holiday.0.end', message: 'must be after the start (a special day’s window ends that day)' },
    ]);
    // adjacent windows do not overlap
    expect(
      scheduleViolations(
        [
          { day: 1, start: '08:00', end: '12:00' },
          { day: 1, start: '12:00', end: '18:00' },
        ],
        {},
      ),
    ).toEqual([]);
  });
});

// ---------- card formats ----------
describe('card formats', () => {
  it('decode what they encode, and any single flipped bit is refused by parity', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STANDARD_FORMATS), fc.nat(), fc.nat(), fc.nat(), (f, fac, card, flip) => {
        const facility = fac % 2 ** f.facility!.length;
        const number = card % 2 ** f.card.length;
        const bits = encode(f, facility, number);
        expect(decodeWith(f, bits)).toEqual({ ok: true, format: f.name, facility, card: number });
        const i = flip % f.bits;
        const flipped = bits.slice(0, i) + (bits[i] === '1' ? '0' : '1') + bits.slice(i + 1);
        expect(decodeWith(f, flipped).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
  it('a reader tries its formats in turn and says why none fits', () => {
    const bits = encode(STANDARD_FORMATS[2], 100, 12345);
    expect(decode(STANDARD_FORMATS, bits)).toMatchObject({ ok: true, format: 'Wiegand 37 (H10304)', facility: 100, card: 12345 });
    const r = decode(STANDARD_FORMATS.slice(0, 2), bits);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toContain('37 bits, Wiegand 26 (H10301) has 26');
  });
  it('refuses a custom layout whose fields overlap or leave the bit count', () => {
    const bad: Omit<CardFormat, 'id'> = {
      name: 'x',
      bits: 26,
      facility: { start: 1, length: 10 },
      card: { start: 9, length: 16 },
      parity: [
        { bit: 0, type: 'even', over: { start: 0, length: 13 } },
        { bit: 30, type: 'odd', over: { start: 13, length: 13 } },
      ],
    };
    const v = formatViolations(bad);
    expect(v).toContainEqual({ field: 'facility', message: 'overlaps card', code: 'cardFormat.overlaps', values: { other: 'card' } });
    expect(v).toContainEqual({ field: 'parity.1.bit', message: 'must lie within the 26 bits', code: 'cardFormat.outsideBits', values: { bits: 26 } });
    expect(v).toContainEqual({ field: 'parity.0.over', message: 'must not include its own parity bit', code: 'cardFormat.parityIncludesItself', values: {} });
    for (const f of STANDARD_FORMATS) expect(formatViolations(f)).toEqual([]);
  });
});

// ---------- the engine ----------
function site(
  over: Partial<{ doors: DoorFact[]; zones: AccessIndex['zones']; interlocks: AccessIndex['interlocks']; special: SpecialDate[]; schedule: Schedule }> = {},
) {
  const schedule: Schedule = over.schedule ?? {
    id: 1,
    name: 'Office hours',
    windows: [1, 2, 3, 4, 5].map((day) => ({ day, start: '08:00', end: '18:00' })),
    special: {},
  };
  const always: Schedule = {
    id: 2,
    name: 'Always',
    windows: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00' })),
    special: { holiday: [{ start: '00:00', end: '24:00' }] },
  };
  const door = (id: number, o: Partial<DoorFact> = {}): DoorFact => ({
    id,
    name: `Door ${id}`,
    mode: 'card',
    formatIds: [26],
    entryZoneId: null,
    exitZoneId: null,
    interlockIds: [],
    qrSecret: 'door-secret',
    ...o,
  });
  const doors = over.doors ?? [door(1), door(2), door(3, { mode: 'card-pin' }), door(4, { mode: 'locked-down' })];
  const creds: CredentialFact[] = [
    { id: 10, identityId: 100, number: '4242', facilityCode: 12, status: 'active', validFrom: null, validTo: null },
    { id: 11, identityId: 101, number: '5555', facilityCode: null, status: 'suspended', validFrom: null, validTo: null },
    { id: 12, identityId: 102, number: '6666', facilityCode: null, status: 'active', validFrom: '2026-12-01', validTo: '2026-12-31' },
    { id: 13, identityId: 103, number: '7777', facilityCode: null, status: 'active', validFrom: null, validTo: null },
    { id: 14, identityId: 104, number: '8888', facilityCode: null, status: 'active', validFrom: null, validTo: null },
    { id: 15, identityId: 105, number: '3030', facilityCode: null, status: 'active', validFrom: null, validTo: null },
  ];
  const people: IdentityFact[] = [
    { id: 100, name: 'Nurul', status: 'active', validFrom: null, validTo: null, pin: '1234' },
    { id: 101, name: 'Sam', status: 'active', validFrom: null, validTo: null, pin: null },
    { id: 102, name: 'Temp', status: 'active', validFrom: null, validTo: null, pin: null },
    { id: 103, name: 'Gone', status: 'inactive', validFrom: null, validTo: null, pin: null },
    { id: 104, name: 'Guard', status: 'active', validFrom: null, validTo: null, pin: null },
    { id: 105, name: 'Contractor', status: 'active', validFrom: '2026-11-01', validTo: '2026-11-30', pin: null },
  ];
  const groups: AccessGroupFact[] = [
    { id: 1000, name: 'Staff', doors: new Map(doors.map((d) => [d.id, 1])) },
    { id: 1001, name: 'Security', doors: new Map(doors.map((d) => [d.id, 2])) },
  ];
  const index: AccessIndex = {
    timeZone: 'Asia/Kuala_Lumpur',
    credentials: new Map(creds.map((c) => [c.number, c])),
    identities: new Map(people.map((p) => [p.id, p])),
    doors: new Map(doors.map((d) => [d.id, d])),
    groupsOf: new Map([
      [100, [1000]],
      [101, [1000]],
      [102, [1000]],
      [103, [1000]],
      [104, [1001]],
      [105, []],
    ]),
    groups: new Map(groups.map((g) => [g.id, g])),
    schedules: new Map([
      [1, schedule],
      [2, always],
    ]),
    calendar: new SpecialCalendar(over.special ?? []),
    zones: over.zones ?? new Map(),
    interlocks: over.interlocks ?? new Map(),
    formats: new Map([[26, { id: 26, ...STANDARD_FORMATS[0] }]]),
    qrPeriodS: 30,
  };
  return { index, door };
}
/** Every reason answered in this file: the last test checks that each reason of the contract was reached. */
const seen = new Set<string>();
const decide = (...args: Parameters<typeof decideOnce>) => {
  const d = decideOnce(...args);
  seen.add(d.reason);
  return d;
};
// Monday 2026-11-23 10:00 in Kuala Lumpur (UTC+8)
const MONDAY_10 = at('2026-11-23T02:00:00Z');
const card = (number: string, o: Partial<SwipeRequest> = {}): SwipeRequest => ({ doorId: 1, at: MONDAY_10, presented: { kind: 'card', number }, ...o });

describe('the decision engine', () => {
  it('grants a valid card in its schedule and says why, step by step', () => {
    const { index } = site();
    const d = decide(index, EMPTY_STATE, card('4242'));
    expect(d).toMatchObject({ granted: true, reason: 'granted', identityId: 100, credentialId: 10, accessGroupIds: [1000], alarm: null });
    expect(d.steps.map((s) => s.check)).toEqual(['credential', 'identity', 'door-mode', 'access-group', 'schedule']);
    expect(d.steps.at(-1)!.detail).toBe('Staff: Office hours: Monday 08:00–18:00');
  });

  it('gives each reason for the first check that fails', () => {
    const { index } = site({ special: [{ date: '2026-11-24', yearly: false, kind: 'holiday', name: 'Deepavali' }] });
    const raw = (bits: string) => card('', { presented: { kind: 'raw', bits } });
    const cases: Array<[SwipeRequest, string]> = [
      [raw('1'.repeat(26)), 'wrong-card-format'],
      [card('9999'), 'unknown-credential'],
      [card('5555'), 'credential-suspended'],
      [card('6666'), 'credential-not-yet-valid'],
      [card('6666', { at: at('2027-01-01T02:00:00Z') }), 'credential-expired'],
      [card('7777'), 'identity-inactive'],
      [card('3030', { at: at('2026-10-31T02:00:00Z') }), 'identity-not-yet-valid'],
      [card('3030', { at: at('2026-12-01T02:00:00Z') }), 'identity-expired'],
      [card('3030'), 'no-access-group'],
      [card('4242', { doorId: 4 }), 'door-locked-down'],
      [card('4242', { doorId: 3 }), 'pin-required'],
      [card('4242', { doorId: 3, pin: '9999' }), 'wrong-pin'],
      [card('4242', { at: at('2026-11-23T11:00:00Z') }), 'outside-schedule'], // 19:00 local
      [card('4242', { at: at('2026-11-24T02:00:00Z') }), 'special-day'], // Tuesday 10:00, a holiday
      [card('4242', { presented: { kind: 'qr', code: 'nonsense' } }), 'qr-invalid'],
      [card('4242', { presented: { kind: 'qr', code: qrCode('door-secret', '4242', qrWindow(MONDAY_10, 30) - 1) } }), 'qr-expired'],
    ];
    for (const [req, reason] of cases) expect([reason, decide(index, EMPTY_STATE, req).reason]).toEqual([reason, reason]);
    // the guard's group is open on holidays too
    expect(decide(index, EMPTY_STATE, card('8888', { at: at('2026-11-24T02:00:00Z') })).granted).toBe(true);
  });

  it('reads a raw Wiegand card by the reader’s formats and matches the facility code', () => {
    const { index } = site();
    const bits = encode(STANDARD_FORMATS[0], 12, 4242);
    expect(decide(index, EMPTY_STATE, card('', { presented: { kind: 'raw', bits } })).granted).toBe(true);
    const other = decide(index, EMPTY_STATE, card('', { presented: { kind: 'raw', bits: encode(STANDARD_FORMATS[0], 13, 4242) } }));
    expect(other).toMatchObject({ granted: false, reason: 'unknown-credential' });
  });

  it('opens with a rotating QR code only while it is current', () => {
    const { index } = site();
    const code = qrCode('door-secret', '4242', qrWindow(MONDAY_10, 30));
    expect(decide(index, EMPTY_STATE, card('', { presented: { kind: 'qr', code } })).granted).toBe(true);
    const later = MONDAY_10 + 30_000;
    expect(decide(index, EMPTY_STATE, card('', { at: later, presented: { kind: 'qr', code } })).reason).toBe('qr-expired');
    // another door's code does not open this one
    const foreign = qrCode('another-door', '4242', qrWindow(MONDAY_10, 30));
    expect(decide(index, EMPTY_STATE, card('', { presented: { kind: 'qr', code: foreign } })).reason).toBe('qr-invalid');
  });

  it('a threat level decides only while in force: locked denies all but its exempt groups, card and PIN asks the PIN, then it reverts', () => {
    const from = MONDAY_10 - 60_000;
    const until = MONDAY_10 + 3_600_000;
    fc.assert(
      fc.property(
        fc.constantFrom('card' as const, 'card-pin' as const, 'locked' as const),
        fc.integer({ min: -7_200_000, max: 7_200_000 }),
        fc.boolean(),
        fc.boolean(),
        (mode, offset, exemptStaff, pin) => {
          const threat = { levelId: 1, name: 'Severe', rank: 4, mode, from, until, exempt: exemptStaff ? [1000] : [] };
          const plain = (id: number, o: Partial<DoorFact> = {}): DoorFact => ({
            id,
            name: `Door ${id}`,
            mode: 'card',
            formatIds: [26],
            entryZoneId: null,
            exitZoneId: null,
            interlockIds: [],
            qrSecret: null,
            ...o,
          });
          const { index } = site({ doors: [plain(1, { threat }), plain(2)] });
          const t = MONDAY_10 + offset;
          const inForce = t >= from && t < until;
          // Nurul (Staff, PIN 1234) at the door under the level, in office hours (08:00–18:00 local)
          const d = decide(index, EMPTY_STATE, card('4242', { at: t, pin: pin ? '1234' : null }));
          const d2 = decide(index, EMPTY_STATE, card('4242', { at: t, doorId: 2 }));
          expect(d2.granted).toBe(true); // the other door is not under the level
          if (!inForce || mode === 'card' || exemptStaff) expect([d.granted, d.reason]).toEqual([true, 'granted']);
          else if (mode === 'locked')
            expect([d.granted, d.reason, d.steps.at(-1)?.detail]).toEqual([false, 'threat-level', 'Door 1 is held locked by threat level Severe']);
          else expect([d.granted, d.reason]).toEqual(pin ? [true, 'granted'] : [false, 'pin-required']);
        },
      ),
      // each verdict at least once, whatever the draw: a locking level in force on a door of no exempt group was drawn in
      // about 4 runs of 100, so one run of about 80 never reached it, and the last test found 'threat-level' unanswered
      {
        examples: [
          ['locked', 0, false, false],
          ['card-pin', 0, false, false],
          ['card-pin', 0, false, true],
          ['locked', 0, true, false],
          ['locked', -7_200_000, false, false],
        ],
      },
    );
  });

  it('the card + PIN door lets in with the right PIN', () => {
    const { index } = site();
    expect(decide(index, EMPTY_STATE, card('4242', { doorId: 3, pin: '1234' })).granted).toBe(true);
  });

  it('hard anti-passback: grants in and out alternate; a repeat is denied until forgiven by time or by an operator', () => {
    const zones = new Map([[1, { id: 1, name: 'Plant', antiPassback: 'hard' as const, forgiveMinutes: 60 }]]);
    const { index, door } = site({ zones, doors: [door0(), door0(2)] });
    function door0(id = 1) {
      return { id, name: `Gate ${id}`, mode: 'card' as const, formatIds: [], entryZoneId: 1, exitZoneId: null, interlockIds: [], qrSecret: null };
    }
    void door;
    fc.assert(
      fc.property(
        fc.array(fc.record({ side: fc.constantFrom('entry' as const, 'exit' as const), door: fc.constantFrom(1, 2), gap: fc.integer({ min: 1, max: 59 }) }), {
          maxLength: 30,
        }),
        (swipes) => {
          let state: ZoneState = EMPTY_STATE;
          let now = MONDAY_10;
          let last: 'entry' | 'exit' | null = null;
          for (const s of swipes) {
            now += s.gap * 1000; // within the hour: nothing is forgiven by time
            const req = card('4242', { doorId: s.door, side: s.side, at: now });
            const d = decide(index, state, req);
            if (last === s.side) expect(d.reason).toBe('anti-passback');
            else expect(d.granted).toBe(true);
            if (d.granted) last = s.side;
            state = afterGrant(state, index, req, d);
          }
        },
      ),
      { numRuns: 300 },
    );
    let state = afterGrant(EMPTY_STATE, index, card('4242', { side: 'entry' }), decide(index, EMPTY_STATE, card('4242', { side: 'entry' })));
    expect(decide(index, state, card('4242', { at: MONDAY_10 + 59 * 60_000 })).reason).toBe('anti-passback');
    expect(decide(index, state, card('4242', { at: MONDAY_10 + 60 * 60_000 })).granted).toBe(true);
    state = forgive(state, 100);
    expect(decide(index, state, card('4242', { at: MONDAY_10 + 60_000 })).granted).toBe(true);
  });

  it('soft anti-passback lets the repeat through and asks for an alarm', () => {
    const zones = new Map([[1, { id: 1, name: 'Car park', antiPassback: 'soft' as const, forgiveMinutes: 0 }]]);
    const gate = { id: 1, name: 'Barrier', mode: 'card' as const, formatIds: [], entryZoneId: 1, exitZoneId: null, interlockIds: [], qrSecret: null };
    const { index } = site({ zones, doors: [gate] });
    const first = card('4242');
    const state = afterGrant(EMPTY_STATE, index, first, decide(index, EMPTY_STATE, first));
    expect(decide(index, state, card('4242', { at: MONDAY_10 + 1000 }))).toMatchObject({ granted: true, alarm: 'anti-passback' });
  });

  it('an interlock never grants a door while another door of its group is open', () => {
    const doors: DoorFact[] = [1, 2, 3, 4].map((id) => ({
      id,
      name: `Airlock ${id}`,
      mode: 'card',
      formatIds: [],
      entryZoneId: null,
      exitZoneId: null,
      interlockIds: id <= 3 ? [1] : [],
      qrSecret: null,
    }));
    const interlocks = new Map([[1, { id: 1, name: 'Clean room', doorIds: [1, 2, 3] }]]);
    const { index } = site({ doors, interlocks });
    fc.assert(
      fc.property(fc.subarray([1, 2, 3, 4]), fc.constantFrom(1, 2, 3, 4), (open, doorId) => {
        const d = decide(index, { ...EMPTY_STATE, openDoors: new Set(open) }, card('4242', { doorId }));
        const busy = doorId <= 3 && open.some((o) => o !== doorId && o <= 3);
        expect(d.granted).toBe(!busy);
        if (busy) expect(d.reason).toBe('interlock-busy');
      }),
    );
  });

  it('a lockdown of the door denies everyone, whatever their groups', () => {
    const { index } = site();
    expect(decide(index, { ...EMPTY_STATE, lockedDown: new Set([1]) }, card('8888')).reason).toBe('door-locked-down');
  });

  it('every reason the contract names is reachable (each was answered by a test above)', () => {
    expect([...seen].sort()).toEqual([...DECISION_REASONS].sort());
  });
});

// What the operator reads of a decision (the event's message and the explanation's steps, §access "says why"): the
// survivors of the mutation run (docs/TESTING.md) were the explanations' words and the override and threat windows.
describe('the decision explained', () => {
  const HOUR = 3_600_000;
  const raw = (bits: string) => card('', { presented: { kind: 'raw', bits } });
  const qr = (w: number) => card('', { presented: { kind: 'qr', code: qrCode('door-secret', '4242', w) } });

  it('a denial ends with the one check that failed, saying why, after the checks that passed', () => {
    const { index } = site();
    const cases: Array<[SwipeRequest, string, string, string | RegExp, string[]]> = [
      [card('4242', { doorId: 99 }), 'unknown-credential', 'credential', 'door 99 is not configured', []],
      [raw('1'.repeat(26)), 'wrong-card-format', 'card-format', /\S/, []],
      [card('nonsense'), 'unknown-credential', 'credential', 'no credential numbered nonsense', []],
      [
        card('', { presented: { kind: 'card', number: '4242', facilityCode: 13 } }),
        'unknown-credential',
        'credential',
        'card 4242 is issued with facility 12, not 13',
        [],
      ],
      [card('5555'), 'credential-suspended', 'credential', 'credential 5555 is suspended', []],
      [card('6666'), 'credential-not-yet-valid', 'credential', 'credential 6666 is valid from 2026-12-01', []],
      [card('6666', { at: at('2027-01-01T02:00:00Z') }), 'credential-expired', 'credential', 'credential 6666 was valid to 2026-12-31', []],
      [card('7777'), 'identity-inactive', 'identity', 'Gone is inactive', ['credential']],
      [card('3030', { at: at('2026-10-31T02:00:00Z') }), 'identity-not-yet-valid', 'identity', 'Contractor is valid from 2026-11-01', ['credential']],
      [card('3030', { at: at('2026-12-01T02:00:00Z') }), 'identity-expired', 'identity', 'Contractor was valid to 2026-11-30', ['credential']],
      [card('4242', { doorId: 4 }), 'door-locked-down', 'door-mode', 'Door 4 is locked down', ['credential', 'identity']],
      [card('4242', { doorId: 3 }), 'pin-required', 'pin', 'Door 3 needs card and PIN', ['credential', 'identity']],
      [card('4242', { doorId: 3, pin: '9999' }), 'wrong-pin', 'pin', 'the PIN does not match', ['credential', 'identity']],
      [card('4242', { doorId: 3, pin: '12345' }), 'wrong-pin', 'pin', 'the PIN does not match', ['credential', 'identity']],
      [card('5555', { doorId: 3, pin: '1234' }), 'credential-suspended', 'credential', 'credential 5555 is suspended', []],
      [card('3030'), 'no-access-group', 'access-group', "none of Contractor's 0 access group(s) includes Door 1", ['credential', 'identity', 'door-mode']],
      [card('4242', { at: at('2026-11-23T11:00:00Z') }), 'outside-schedule', 'schedule', /^Staff: /, ['credential', 'identity', 'door-mode', 'access-group']],
      [card('', { presented: { kind: 'qr', code: 'nonsense' } }), 'qr-invalid', 'qr', 'not a Gatehouse QR code', []],
      [
        card('', { presented: { kind: 'qr', code: qrCode('another-secret', '4242', qrWindow(MONDAY_10, 30)) } }),
        'qr-invalid',
        'qr',
        'the code was not made for this door',
        [],
      ],
      [qr(qrWindow(MONDAY_10, 30) - 2), 'qr-expired', 'qr', 'shown 60 s ago or more; codes change every 30 s', []],
      [qr(qrWindow(MONDAY_10, 30) + 1), 'qr-expired', 'qr', 'shown 0 s ago or more; codes change every 30 s', []],
    ];
    for (const [req, reason, check, detail, passed] of cases) {
      const d = decide(index, EMPTY_STATE, req);
      expect({ reason: d.reason, granted: d.granted }).toEqual({ reason, granted: false });
      expect(d.steps.map((s) => [s.check, s.ok])).toEqual([...passed.map((c) => [c, true]), [check, false]]);
      if (typeof detail === 'string') expect(d.steps.at(-1)!.detail).toBe(detail);
      else expect(d.steps.at(-1)!.detail).toMatch(detail);
      expect(decisionMessage(d)).toBe(`${DECISION_LABELS[reason as keyof typeof DECISION_LABELS]} (${d.steps.at(-1)!.detail})`);
    }
    // nobody is named before the credential is known; after it, the person and card are
    expect(decide(index, EMPTY_STATE, card('nonsense'))).toMatchObject({ identityId: null, credentialId: null, accessGroupIds: [] });
    expect(decide(index, EMPTY_STATE, card('5555'))).toMatchObject({ identityId: 101, credentialId: 11, accessGroupIds: [] });
  });

  it('a grant explains every check it passed, in words', () => {
    const { index } = site();
    const bits = encode(STANDARD_FORMATS[0], 12, 4242);
    const byRaw = decide(index, EMPTY_STATE, raw(bits));
    expect(byRaw.steps.map((s) => [s.check, s.ok])).toEqual(
      ['card-format', 'credential', 'identity', 'door-mode', 'access-group', 'schedule'].map((c) => [c, true]),
    );
    expect(byRaw.steps[0].detail).toMatch(/: facility 12, card 4242$/);
    expect(byRaw.steps.slice(1, 5).map((s) => s.detail)).toEqual(['credential 4242 is active', 'Nurul is active', 'Door 1: card only', 'Staff']);
    const byQr = decide(index, EMPTY_STATE, qr(qrWindow(MONDAY_10, 30)));
    expect(byQr).toMatchObject({ granted: true, identityId: 100 });
    expect(words(byQr.steps[0])).toEqual({ check: 'qr', ok: true, detail: 'current QR code of Door 1' });
    const withPin = decide(index, EMPTY_STATE, card('4242', { doorId: 3, pin: '1234' }));
    expect(withPin.steps.slice(2, 4).map(words)).toEqual([
      { check: 'pin', ok: true, detail: 'PIN matches' },
      { check: 'door-mode', ok: true, detail: 'Door 3: card and PIN' },
    ]);
    expect(decisionMessage(withPin)).toBe(DECISION_LABELS.granted);
  });

  it('an override holds a door from its start until (not at) its end; the latest to start wins, then the newest', () => {
    const T = MONDAY_10;
    const o = (id: number, mode: 'locked' | 'unlocked' | 'card-pin' | 'card', from: number, to: number) => ({ id, name: `Override ${id}`, mode, from, to });
    const overrides = [o(1, 'locked', T - HOUR, T + HOUR), o(2, 'unlocked', T - HOUR / 2, T + HOUR / 2), o(3, 'card-pin', T - HOUR / 2, T + HOUR / 4)];
    const { index, door } = site();
    const d1 = door(1, { overrides });
    expect(overrideAt(d1, T)?.id).toBe(3); // 2 and 3 started together: the newest
    expect(overrideAt(d1, T + HOUR / 4)?.id).toBe(2); // 3 has ended at its end
    expect(overrideAt(d1, T + HOUR / 2)?.id).toBe(1);
    expect(overrideAt(d1, T - HOUR)?.id).toBe(1); // in force from its start
    expect(overrideAt(d1, T - HOUR - 1)).toBeNull();
    expect(overrideAt(d1, T + HOUR)).toBeNull();
    expect(overrideAt(door(1), T)).toBeNull();

    const held = (mode: 'locked' | 'unlocked' | 'card-pin') => {
      const doors = [door(1, { overrides: [o(7, mode, T - HOUR, T + HOUR)] })];
      return { index: site({ doors }).index, until: new Date(T + HOUR).toISOString() };
    };
    const locked = held('locked');
    const denied = decide(locked.index, EMPTY_STATE, card('8888'));
    expect(denied).toMatchObject({ granted: false, reason: 'door-locked-down' });
    expect(words(denied.steps.at(-1))).toEqual({
      check: 'door-mode',
      ok: false,
      detail: `Door 1 is held locked by the override Override 7 until ${locked.until}`,
    });
    expect(decide(locked.index, EMPTY_STATE, card('8888', { at: T + HOUR })).granted).toBe(true);
    const unlocked = held('unlocked');
    const open = decide(unlocked.index, EMPTY_STATE, card('4242'));
    expect(open.steps.find((s) => s.check === 'door-mode')?.detail).toBe(`Door 1 is unlocked (held by the override Override 7 until ${unlocked.until})`);
    const pin = held('card-pin');
    expect(decide(pin.index, EMPTY_STATE, card('4242')).reason).toBe('pin-required');
    expect(decide(pin.index, EMPTY_STATE, card('4242', { pin: '1234' })).steps.find((s) => s.check === 'door-mode')?.detail).toBe(
      `Door 1: card and PIN (held by the override Override 7 until ${pin.until})`,
    );
    expect(index.doors.get(1)?.overrides).toBeUndefined();
  });

  it('a threat level is in force from its start until (not at) its end, or until lowered', () => {
    const T = MONDAY_10;
    const threat = (until: number | null) => ({ levelId: 1, name: 'Red', rank: 3, mode: 'locked' as const, from: T, until, exempt: [1001] });
    const { door } = site();
    const d = door(1, { threat: threat(T + HOUR) });
    expect(threatAt(d, T)?.name).toBe('Red');
    expect(threatAt(d, T - 1)).toBeNull();
    expect(threatAt(d, T + HOUR - 1)?.name).toBe('Red');
    expect(threatAt(d, T + HOUR)).toBeNull();
    expect(threatAt(door(1, { threat: threat(null) }), T + 1000 * HOUR)?.name).toBe('Red');
    const { index } = site({ doors: [d] });
    expect(words(decide(index, EMPTY_STATE, card('4242')).steps.at(-1))).toEqual({
      check: 'door-mode',
      ok: false,
      detail: 'Door 1 is held locked by threat level Red',
    });
    expect(words(decide(index, EMPTY_STATE, card('8888')).steps.find((s) => s.check === 'door-mode'))).toEqual({
      check: 'door-mode',
      ok: true,
      detail: 'Guard passes at threat level Red (a member of an exempt group)',
    });
    // no exempt groups: nobody passes
    const none = site({ doors: [door(1, { threat: { ...threat(null), exempt: [] } })] }).index;
    expect(decide(none, EMPTY_STATE, card('8888')).reason).toBe('threat-level');
  });

  it('the zone state changes only by a granted swipe, and a forgive of someone with no history changes nothing', () => {
    const zones = new Map([[1, { id: 1, name: 'Lab', antiPassback: 'hard' as const, forgiveMinutes: 0 }]]);
    const lab: DoorFact = { id: 1, name: 'Lab door', mode: 'card', formatIds: [], entryZoneId: 1, exitZoneId: null, interlockIds: [], qrSecret: null };
    const { index } = site({ zones, doors: [lab] });
    const denied = decide(index, EMPTY_STATE, card('5555'));
    expect(afterGrant(EMPTY_STATE, index, card('5555'), denied)).toBe(EMPTY_STATE);
    const granted = decide(index, EMPTY_STATE, card('4242'));
    expect(afterGrant(EMPTY_STATE, index, card('4242', { doorId: 2 }), granted)).toBe(EMPTY_STATE); // a door no longer configured
    const inside = afterGrant(EMPTY_STATE, index, card('4242'), granted);
    expect(inside.presence.get(100)).toEqual({ zoneId: 1, at: MONDAY_10 });
    expect(EMPTY_STATE.presence.size).toBe(0);
    const again = decide(index, inside, card('4242', { at: MONDAY_10 + 1000 }));
    expect(words(again.steps.at(-1))).toEqual({
      check: 'anti-passback',
      ok: false,
      detail: `Nurul is already in Lab (since ${new Date(MONDAY_10).toISOString()})`,
    });
    expect(forgive(inside, 999)).toBe(inside);
    expect(forgive(inside, 100).presence.has(100)).toBe(false);
    expect(inside.presence.has(100)).toBe(true);
  });
});

// The second mutation run's survivors (2026-12-03): rules of the decision that only one order of the configuration, one
// side of a door or one absent piece of configuration shows. Each expectation is worked out by hand from the rule.
describe('the decision at its edges', () => {
  const HOUR = 3_600_000;
  const EVENING = at('2026-11-23T11:00:00Z'); // Monday 19:00 local: Office hours closed, Always open
  const HOLIDAY = at('2026-11-24T02:00:00Z'); // Tuesday 10:00 local, the holiday of the site below
  /** The site with Nurul (100) in the given groups, extra groups and credentials. */
  function withGroups(nurul: number[], more: AccessGroupFact[] = [], o: Parameters<typeof site>[0] = {}) {
    const { index, door } = site(o);
    return {
      door,
      index: {
        ...index,
        groupsOf: new Map([...index.groupsOf, [100, nurul]]),
        groups: new Map([...index.groups, ...more.map((g) => [g.id, g] as const)]),
      } as AccessIndex,
    };
  }

  it('the override in force does not depend on the order the overrides are listed in', () => {
    const T = MONDAY_10;
    const o = (id: number, from: number, to: number) => ({ id, name: `Override ${id}`, mode: 'unlocked' as const, from, to });
    const all = [o(1, T - HOUR, T + HOUR), o(2, T - HOUR / 2, T + HOUR / 2), o(3, T - HOUR / 2, T + HOUR / 4)];
    // by hand: at T, 2 and 3 started last, together: 3 is the newer; at T + ¼ h 3 has ended: 2; at T + ½ h only 1
    const expected: Array<[number, number | null]> = [
      [T, 3],
      [T + HOUR / 4, 2],
      [T + HOUR / 2, 1],
      [T - HOUR, 1],
      [T + HOUR, null],
    ];
    const { door } = site();
    const orders = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    for (const order of orders) {
      const d = door(1, { overrides: order.map((i) => all[i]) });
      for (const [t, id] of expected) expect([order, t - T, overrideAt(d, t)?.id ?? null]).toEqual([order, t - T, id]);
    }
  });

  it('a credential issued without a facility code is matched by its number, whatever facility the reader read', () => {
    const { index } = site();
    expect(decide(index, EMPTY_STATE, card('', { presented: { kind: 'card', number: '8888', facilityCode: 99 } }))).toMatchObject({
      granted: true,
      identityId: 104,
    });
    const bits = encode(STANDARD_FORMATS[0], 99, 8888);
    expect(decide(index, EMPTY_STATE, card('', { presented: { kind: 'raw', bits } })).granted).toBe(true);
    // one issued with a facility needs that facility when the reader read one, and accepts a card read without one
    expect(decide(index, EMPTY_STATE, card('', { presented: { kind: 'card', number: '4242', facilityCode: 12 } })).granted).toBe(true);
    expect(decide(index, EMPTY_STATE, card('', { presented: { kind: 'card', number: '4242', facilityCode: null } })).granted).toBe(true);
  });

  it('a credential whose person no longer exists is refused as an inactive identity, naming card and person', () => {
    const { index } = site();
    const orphan: CredentialFact = { id: 16, identityId: 999, number: '1111', facilityCode: null, status: 'active', validFrom: null, validTo: null };
    const d = decide({ ...index, credentials: new Map([...index.credentials, ['1111', orphan]]) }, EMPTY_STATE, card('1111'));
    expect(d).toMatchObject({ granted: false, reason: 'identity-inactive', identityId: 999, credentialId: 16 });
    expect(words(d.steps.at(-1))).toEqual({ check: 'identity', ok: false, detail: 'the identity no longer exists' });
  });

  it('a reader skips a format no longer configured and reads the card by the others; a format without facility says so', () => {
    const cardOnly: CardFormat = { id: 40, name: 'Card 16', bits: 16, facility: null, card: { start: 0, length: 16 }, parity: [] };
    const { index, door } = site();
    const reader = { ...index, doors: new Map([[1, door(1, { formatIds: [99, 40] })]]), formats: new Map([[40, cardOnly]]) };
    const d = decide(reader, EMPTY_STATE, card('', { presented: { kind: 'raw', bits: encode(cardOnly, null, 8888) } }));
    expect(d).toMatchObject({ granted: true, identityId: 104 });
    expect(words(d.steps[0])).toEqual({ check: 'card-format', ok: true, detail: 'Card 16: facility —, card 8888' });
  });

  it('a door without QR codes, and a code with anything before or after it, are refused as not Gatehouse codes', () => {
    const { index, door } = site();
    const code = qrCode('door-secret', '4242', qrWindow(MONDAY_10, 30));
    const noQr = { ...index, doors: new Map([[1, door(1, { qrSecret: null })]]) };
    const qr = (c: string) => card('', { presented: { kind: 'qr', code: c } });
    expect(words(decide(noQr, EMPTY_STATE, qr(code)).steps.at(-1))).toEqual({ check: 'qr', ok: false, detail: 'this door has no QR codes' });
    for (const c of [`x${code}`, `${code}x`, code.replace('GHQ.', 'GHQ..'), code.slice(0, -1)])
      expect([c, words(decide(index, EMPTY_STATE, qr(c)).steps.at(-1))]).toEqual([c, { check: 'qr', ok: false, detail: 'not a Gatehouse QR code' }]);
    expect(decide(index, EMPTY_STATE, qr(code)).granted).toBe(true);
  });

  it('a person without a PIN is refused at a card and PIN door whatever is typed; nothing typed asks for it', () => {
    const { index } = site();
    expect(decide(index, EMPTY_STATE, card('8888', { doorId: 3, pin: '1234' })).reason).toBe('wrong-pin');
    expect(decide(index, EMPTY_STATE, card('8888', { doorId: 3, pin: '' })).reason).toBe('pin-required');
  });

  it('memberships of groups that no longer exist give nothing; every group with the door is named; the open one decides', () => {
    const gone = withGroups([5555]).index;
    expect(decide(gone, EMPTY_STATE, card('4242')).steps.at(-1)?.detail).toBe("none of Nurul's 1 access group(s) includes Door 1");
    const both = withGroups([5555, 1000, 1001]).index;
    const day = decide(both, EMPTY_STATE, card('4242'));
    expect(day).toMatchObject({ granted: true, accessGroupIds: [1000] });
    expect(day.steps.find((s) => s.check === 'access-group')?.detail).toBe('Staff, Security');
    // at 19:00 Office hours is closed, Always is open: the grant names Security alone
    const evening = decide(both, EMPTY_STATE, card('4242', { at: EVENING }));
    expect(evening).toMatchObject({ granted: true, accessGroupIds: [1001] });
    expect(evening.steps.find((s) => s.check === 'schedule')?.detail).toMatch(/^Security: Always: /);
    // denied by the schedules: every group with the door is named
    const closed = decide(
      withGroups([1000, 1002], [{ id: 1002, name: 'Cleaners', doors: new Map([[1, 1]]) }]).index,
      EMPTY_STATE,
      card('4242', { at: EVENING }),
    );
    expect(closed).toMatchObject({ granted: false, reason: 'outside-schedule', accessGroupIds: [1000, 1002] });
  });

  it('a group whose schedule is gone is closed and says so; the first closed group gives the reason unless a later one is closed for a special day', () => {
    const lost: AccessGroupFact = { id: 1003, name: 'Night shift', doors: new Map([[1, 77]]) };
    const special = [{ date: '2026-11-24', yearly: false, kind: 'holiday' as const, name: 'Deepavali' }];
    const reasonOf = (groups: number[], t: number) => {
      const d = decide(withGroups(groups, [lost], { special }).index, EMPTY_STATE, card('4242', { at: t }));
      return [d.reason, d.steps.at(-1)?.detail];
    };
    expect(reasonOf([1003], MONDAY_10)).toEqual(['outside-schedule', 'Night shift: its schedule no longer exists']);
    expect(reasonOf([1003, 1000], EVENING)).toEqual(['outside-schedule', 'Night shift: its schedule no longer exists']);
    expect(reasonOf([1000, 1003], EVENING)).toEqual(['outside-schedule', 'Staff: Office hours on Monday: 08:00–18:00']);
    const holiday = 'Staff: Deepavali (holiday): Office hours is closed on this kind of day';
    expect(reasonOf([1003, 1000], HOLIDAY)).toEqual(['special-day', holiday]);
    expect(reasonOf([1000, 1003], HOLIDAY)).toEqual(['special-day', holiday]);
    // an open group after a lost one still opens
    expect(reasonOf([1003, 1000], MONDAY_10)).toEqual(['granted', 'Staff: Office hours: Monday 08:00–18:00']);
  });

  it('a threat level of card mode adds nothing; card and PIN outranks an override that unlocks, but not for its exempt groups', () => {
    const T = MONDAY_10;
    const threat = (mode: 'card' | 'card-pin' | 'locked') => ({ levelId: 2, name: 'Amber', rank: 2, mode, from: T - HOUR, until: null, exempt: [1001] });
    const unlock = { id: 5, name: 'Open day', mode: 'unlocked' as const, from: T - HOUR, to: T + HOUR };
    const lock = { id: 6, name: 'Repairs', mode: 'locked' as const, from: T - HOUR, to: T + HOUR };
    const until = new Date(T + HOUR).toISOString();
    const { door } = site();
    const at1 = (d: DoorFact) => site({ doors: [d] }).index;
    const plain = decide(at1(door(1)), EMPTY_STATE, card('8888'));
    const underCard = decide(at1(door(1, { threat: threat('card') })), EMPTY_STATE, card('8888'));
    expect(underCard.steps).toEqual(plain.steps); // Guard is exempt, yet a 'card' level has nothing to let him through
    const pinned = at1(door(1, { threat: threat('card-pin'), overrides: [unlock] }));
    expect(decide(pinned, EMPTY_STATE, card('4242')).reason).toBe('pin-required');
    const withPin = decide(pinned, EMPTY_STATE, card('4242', { pin: '1234' }));
    expect(words(withPin.steps.find((s) => s.check === 'door-mode'))).toEqual({
      check: 'door-mode',
      ok: true,
      detail: 'Door 1: card and PIN (threat level Amber)',
    });
    const exempt = decide(pinned, EMPTY_STATE, card('8888'));
    expect(exempt.granted).toBe(true);
    expect(exempt.steps.filter((s) => s.check === 'door-mode').map((s) => s.detail)).toEqual([
      'Guard passes at threat level Amber (a member of an exempt group)',
      `Door 1 is unlocked (held by the override Open day until ${until})`,
    ]);
    // an exempt member passes the level, not an override that holds the door locked
    const locked = decide(at1(door(1, { threat: threat('locked'), overrides: [lock] })), EMPTY_STATE, card('8888'));
    expect([locked.reason, locked.steps.at(-1)?.detail]).toEqual(['door-locked-down', `Door 1 is held locked by the override Repairs until ${until}`]);
  });

  it('anti-passback: leaving when already outside is a repeat; a door from an unguarded zone into a guarded one guards both ways', () => {
    const zones = new Map([
      [1, { id: 1, name: 'Plant', antiPassback: 'hard' as const, forgiveMinutes: 0 }],
      [2, { id: 2, name: 'Lobby', antiPassback: 'off' as const, forgiveMinutes: 0 }],
    ]);
    const gate = (o: Partial<DoorFact>): DoorFact => ({
      id: 1,
      name: 'Gate',
      mode: 'card',
      formatIds: [],
      entryZoneId: 1,
      exitZoneId: null,
      interlockIds: [],
      qrSecret: null,
      ...o,
    });
    const since = new Date(MONDAY_10).toISOString();
    // out of the plant to outside (no zone), twice
    const plant = site({ zones, doors: [gate({})] }).index;
    const out = card('4242', { side: 'exit' });
    const first = decide(plant, EMPTY_STATE, out);
    expect(words(first.steps.find((s) => s.check === 'anti-passback'))).toEqual({ check: 'anti-passback', ok: true, detail: 'no repeat' });
    const outside = afterGrant(EMPTY_STATE, plant, out, first);
    expect(outside.presence.get(100)).toEqual({ zoneId: null, at: MONDAY_10 });
    const again = decide(plant, outside, card('4242', { side: 'exit', at: MONDAY_10 + 1000 }));
    expect([again.reason, again.steps.at(-1)?.detail]).toEqual(['anti-passback', `Nurul is already outside (since ${since})`]);
    // the plant's exit goes to the lobby (unguarded): entering the lobby twice from the plant is still a repeat
    const inner = site({ zones, doors: [gate({ entryZoneId: 2, exitZoneId: 1 })] }).index;
    const lobby = afterGrant(EMPTY_STATE, inner, card('4242'), decide(inner, EMPTY_STATE, card('4242')));
    expect(lobby.presence.get(100)).toEqual({ zoneId: 2, at: MONDAY_10 });
    const twice = decide(inner, lobby, card('4242', { at: MONDAY_10 + 1000 }));
    expect([twice.reason, twice.steps.at(-1)?.detail]).toEqual(['anti-passback', `Nurul is already in Lobby (since ${since})`]);
    expect(decide(inner, lobby, card('4242', { side: 'exit', at: MONDAY_10 + 1000 })).granted).toBe(true);
    // both zones unguarded: no anti-passback check at all
    const free = site({ zones, doors: [gate({ entryZoneId: 2, exitZoneId: null })] }).index;
    expect(decide(free, lobby, card('4242')).steps.map((s) => s.check)).not.toContain('anti-passback');
    // forgiveMinutes 0: never forgiven by time, even a day later
    expect(decide(plant, outside, card('4242', { side: 'exit', at: MONDAY_10 + 24 * HOUR })).reason).toBe('anti-passback');
  });

  it('anti-passback explains a forgiven repeat and a soft repeat in words', () => {
    const zone = (antiPassback: 'hard' | 'soft', forgiveMinutes: number) => new Map([[1, { id: 1, name: 'Plant', antiPassback, forgiveMinutes }]]);
    const gate: DoorFact = { id: 1, name: 'Gate', mode: 'card', formatIds: [], entryZoneId: 1, exitZoneId: null, interlockIds: [], qrSecret: null };
    const inside: ZoneState = { ...EMPTY_STATE, presence: new Map([[100, { zoneId: 1, at: MONDAY_10 }]]) };
    const hard = site({ zones: zone('hard', 30), doors: [gate] }).index;
    expect(words(decide(hard, inside, card('4242', { at: MONDAY_10 + 30 * 60_000 })).steps.find((s) => s.check === 'anti-passback'))).toEqual({
      check: 'anti-passback',
      ok: true,
      detail: 'repeat forgiven after 30 min',
    });
    const soft = site({ zones: zone('soft', 0), doors: [gate] }).index;
    const d = decide(soft, inside, card('4242', { at: MONDAY_10 + 1000 }));
    expect(d).toMatchObject({ granted: true, alarm: 'anti-passback' });
    expect(words(d.steps.at(-1))).toEqual({
      check: 'anti-passback',
      ok: true,
      detail: `Nurul is already in Plant (since ${new Date(MONDAY_10).toISOString()}): soft anti-passback lets through and raises an alarm`,
    });
  });

  it('an interlock names the open door and its group; a grant says the others are closed; an unknown group holds nothing', () => {
    const doors: DoorFact[] = [1, 2].map((id) => ({
      id,
      name: `Airlock ${id}`,
      mode: 'card',
      formatIds: [],
      entryZoneId: null,
      exitZoneId: null,
      interlockIds: id === 1 ? [1, 9] : [1],
      qrSecret: null,
    }));
    const interlocks = new Map([[1, { id: 1, name: 'Clean room', doorIds: [1, 2, 7] }]]);
    const { index } = site({ doors, interlocks });
    const busy = (open: number[]) => decide(index, { ...EMPTY_STATE, openDoors: new Set(open) }, card('4242')).steps.at(-1);
    expect(words(busy([2]))).toEqual({ check: 'interlock', ok: false, detail: 'Airlock 2 of Clean room is open' });
    expect(words(busy([7]))).toEqual({ check: 'interlock', ok: false, detail: 'door 7 of Clean room is open' }); // a door no longer configured
    expect(words(busy([1]))).toEqual({ check: 'interlock', ok: true, detail: 'every other door of the interlock is closed' });
    expect(words(busy([]))).toEqual({ check: 'interlock', ok: true, detail: 'every other door of the interlock is closed' });
  });

  it('validity dates are inclusive: the first and the last day of a credential or a person still pass', () => {
    const { index } = site();
    // 6666 is valid 2026-12-01 to 2026-12-31 (Tuesday and Thursday, office hours at 10:00)
    expect(decide(index, EMPTY_STATE, card('6666', { at: at('2026-12-01T02:00:00Z') })).granted).toBe(true);
    expect(decide(index, EMPTY_STATE, card('6666', { at: at('2026-12-31T02:00:00Z') })).granted).toBe(true);
    // the Contractor is valid 2026-11-01 to 2026-11-30: those days the identity passes (and no group has the door)
    expect(decide(index, EMPTY_STATE, card('3030', { at: at('2026-11-01T02:00:00Z') })).reason).toBe('no-access-group');
    expect(decide(index, EMPTY_STATE, card('3030', { at: at('2026-11-30T02:00:00Z') })).reason).toBe('no-access-group');
  });

  it('a person in an exempt group passes a locking level even when in other groups too', () => {
    const { index } = withGroups([1000, 1001], [], {
      doors: [site().door(1, { threat: { levelId: 3, name: 'Red', rank: 3, mode: 'locked', from: MONDAY_10 - HOUR, until: null, exempt: [1001] } })],
    });
    expect(decide(index, EMPTY_STATE, card('4242')).granted).toBe(true);
  });

  it('a person with no group list at all is told none of 0 groups opens the door', () => {
    const { index } = site();
    const groupsOf = new Map([...index.groupsOf].filter(([id]) => id !== 100));
    expect(decide({ ...index, groupsOf }, EMPTY_STATE, card('4242')).steps.at(-1)?.detail).toBe("none of Nurul's 0 access group(s) includes Door 1");
  });

  it('a repeat into a zone no longer configured is explained as "the zone"', () => {
    const zones = new Map([[1, { id: 1, name: 'Plant', antiPassback: 'hard' as const, forgiveMinutes: 0 }]]);
    const gate: DoorFact = { id: 1, name: 'Gate', mode: 'card', formatIds: [], entryZoneId: 5, exitZoneId: 1, interlockIds: [], qrSecret: null };
    const { index } = site({ zones, doors: [gate] });
    const inside: ZoneState = { ...EMPTY_STATE, presence: new Map([[100, { zoneId: 5, at: MONDAY_10 }]]) };
    expect(decide(index, inside, card('4242', { at: MONDAY_10 + 1000 })).steps.at(-1)?.detail).toBe(
      `Nurul is already in the zone (since ${new Date(MONDAY_10).toISOString()})`,
    );
  });

  it('a QR code is GHQ.<number>.<window>.<the first 16 of the HMAC-SHA256 of "<number>.<window>">, its window the period count since the epoch', () => {
    const mac = createHmac('sha256', 'door-secret').update('4242.7').digest('base64url').slice(0, 16);
    expect(qrCode('door-secret', '4242', 7)).toBe(`GHQ.4242.7.${mac}`);
    expect([qrWindow(0, 30), qrWindow(29_999, 30), qrWindow(30_000, 30), qrWindow(90_000, 30), qrWindow(89_999, 30)]).toEqual([0, 0, 1, 3, 2]);
    // a window written with leading zeros is not the code the door shows
    const { index } = site();
    const w = qrWindow(MONDAY_10, 30);
    const padded = qrCode('door-secret', '4242', w).replace(`.${w}.`, `.00${w}.`);
    expect(words(decide(index, EMPTY_STATE, card('', { presented: { kind: 'qr', code: padded } })).steps.at(-1))).toEqual({
      check: 'qr',
      ok: false,
      detail: 'the code was not made for this door',
    });
  });

  it('the override that started last wins even over a newer one that started earlier', () => {
    const T = MONDAY_10;
    const o = (id: number, from: number, to: number) => ({ id, name: `Override ${id}`, mode: 'unlocked' as const, from, to });
    // by hand: at T both hold; 2 started last (T - ½ h), 9 is newer but started at T - 2 h
    const overrides = [o(2, T - HOUR / 2, T + HOUR), o(9, T - 2 * HOUR, T + 2 * HOUR)];
    const { door } = site();
    expect(overrideAt(door(1, { overrides }), T)?.id).toBe(2);
    expect(overrideAt(door(1, { overrides: [...overrides].reverse() }), T)?.id).toBe(2);
  });

  it('when every group is closed for the special day, the first group gives the reason', () => {
    const cleaners: AccessGroupFact = { id: 1002, name: 'Cleaners', doors: new Map([[1, 1]]) };
    const special = [{ date: '2026-11-24', yearly: false, kind: 'holiday' as const, name: 'Deepavali' }];
    const d = decide(withGroups([1000, 1002], [cleaners], { special }).index, EMPTY_STATE, card('4242', { at: HOLIDAY }));
    expect([d.reason, d.steps.at(-1)?.detail]).toEqual(['special-day', 'Staff: Deepavali (holiday): Office hours is closed on this kind of day']);
  });
});
