// Decisions per swipe (issue 12): decide() over an index of 100,000 identities (one card each), 1,000 doors and 500
// access groups (each with 40 doors on one of 20 schedules; every identity in 3 groups), 30 special dates, zones with
// anti-passback — built in memory as the server's index is, then 200,000 swipes of random cards at random doors and
// times (grants and every kind of deny). Target: p99 < 1 ms per decision.
import { performance } from 'node:perf_hooks';
import {
  EMPTY_STATE,
  afterGrant,
  decide,
  type AccessGroupFact,
  type AccessIndex,
  type CredentialFact,
  type DoorFact,
  type IdentityFact,
  type ZoneFact,
  type ZoneState,
} from '../access/engine';
import { SpecialCalendar, type Schedule, type SpecialDate } from '../access/schedule';
import { pct, writeResult } from './lib';

const IDENTITIES = 100_000;
const DOORS = 1_000;
const GROUPS = 500;
const SCHEDULES = 20;
const SWIPES = 200_000;
const TARGET_P99_MS = 1;

/** A small deterministic generator, so runs compare. */
export function rng(seed: number) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

export function buildBenchIndex(random = rng(12)): AccessIndex {
  const schedules = new Map<number, Schedule>();
  for (let s = 1; s <= SCHEDULES; s++) {
    const start = `${String(6 + (s % 4)).padStart(2, '0')}:00`;
    const end = s % 5 === 0 ? '02:00' : `${String(16 + (s % 6)).padStart(2, '0')}:30`; // some run past midnight
    schedules.set(s, {
      id: s,
      name: `Schedule ${s}`,
      windows: [1, 2, 3, 4, 5, ...(s % 3 === 0 ? [6, 0] : [])].map((day) => ({ day, start, end })),
      special: s % 2 ? { 'half-day': [{ start: '08:00', end: '13:00' }] } : {},
    });
  }
  const zones = new Map<number, ZoneFact>();
  for (let z = 1; z <= 50; z++)
    zones.set(z, { id: z, name: `Zone ${z}`, antiPassback: z % 3 === 0 ? 'hard' : z % 3 === 1 ? 'soft' : 'off', forgiveMinutes: z % 2 ? 30 : 0 });
  const doors = new Map<number, DoorFact>();
  for (let d = 1; d <= DOORS; d++) {
    doors.set(d, {
      id: d,
      name: `Door ${d}`,
      mode: d % 97 === 0 ? 'locked-down' : 'card',
      formatIds: [],
      entryZoneId: d % 4 === 0 ? 1 + (d % 50) : null,
      exitZoneId: null,
      interlockIds: [],
      qrSecret: null,
    });
  }
  const groups = new Map<number, AccessGroupFact>();
  for (let g = 1; g <= GROUPS; g++) {
    const ds = new Map<number, number>();
    for (let i = 0; i < 40; i++) ds.set(1 + Math.floor(random() * DOORS), 1 + (g % SCHEDULES));
    groups.set(g, { id: g, name: `Group ${g}`, doors: ds });
  }
  const credentials = new Map<string, CredentialFact>();
  const identities = new Map<number, IdentityFact>();
  const groupsOf = new Map<number, number[]>();
  for (let i = 1; i <= IDENTITIES; i++) {
    identities.set(i, {
      id: i,
      name: `Person ${i}`,
      status: i % 50 === 0 ? 'suspended' : 'active',
      validFrom: null,
      validTo: i % 70 === 0 ? '2026-01-01' : null,
      pin: null,
    });
    credentials.set(String(1_000_000 + i), {
      id: i,
      identityId: i,
      number: String(1_000_000 + i),
      facilityCode: null,
      status: i % 60 === 0 ? 'lost' : 'active',
      validFrom: null,
      validTo: null,
    });
    groupsOf.set(i, [1 + Math.floor(random() * GROUPS), 1 + Math.floor(random() * GROUPS), 1 + Math.floor(random() * GROUPS)]);
  }
  const dates: SpecialDate[] = [];
  for (let k = 0; k < 30; k++)
    dates.push({
      date: `2026-${String(1 + (k % 12)).padStart(2, '0')}-${String(1 + k).padStart(2, '0')}`,
      yearly: k % 2 === 0,
      kind: k % 3 ? 'holiday' : 'half-day',
      name: `Day ${k}`,
    });
  return {
    timeZone: 'Asia/Kuala_Lumpur',
    credentials,
    identities,
    doors,
    groupsOf,
    groups,
    schedules,
    calendar: new SpecialCalendar(dates),
    zones,
    interlocks: new Map(),
    formats: new Map(),
    qrPeriodS: 30,
  };
}

export async function decideBench() {
  const random = rng(7);
  const t0 = performance.now();
  const index = buildBenchIndex();
  const buildMs = performance.now() - t0;
  let state: ZoneState = EMPTY_STATE;
  const samples = new Float64Array(SWIPES);
  const reasons: Record<string, number> = {};
  const base = Date.parse('2026-11-23T00:00:00Z');
  // warm-up: the JIT and the time-zone formatter
  for (let i = 0; i < 5_000; i++)
    decide(index, state, { doorId: 1 + (i % DOORS), at: base + i * 60_000, presented: { kind: 'card', number: String(1_000_001 + (i % IDENTITIES)) } });
  for (let i = 0; i < SWIPES; i++) {
    const unknown = random() < 0.05;
    const req = {
      doorId: 1 + Math.floor(random() * DOORS),
      side: 'entry' as const,
      at: base + Math.floor(random() * 14 * 86_400_000),
      presented: { kind: 'card' as const, number: unknown ? `9${i}` : String(1_000_001 + Math.floor(random() * IDENTITIES)) },
    };
    const t = performance.now();
    const d = decide(index, state, req);
    samples[i] = performance.now() - t;
    if (d.granted) state = afterGrant(state, index, req, d);
    reasons[d.reason] = (reasons[d.reason] ?? 0) + 1;
  }
  const xs = Array.from(samples);
  const p99 = pct(xs, 99);
  writeResult('decide', {
    identities: IDENTITIES,
    doors: DOORS,
    accessGroups: GROUPS,
    swipes: SWIPES,
    indexBuildMs: Math.round(buildMs),
    decisionMs: { p50: pct(xs, 50), p95: pct(xs, 95), p99, max: pct(xs, 100) },
    reasons,
    target: { p99Ms: TARGET_P99_MS },
    met: p99 < TARGET_P99_MS,
  });
}
