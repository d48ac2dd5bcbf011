// The access-decision engine (issue 12): one pure function that the simulator, the door commands and the "Why?"
// explainer all use. It reads an index built from the configuration (AccessIndex: maps kept current on change, never
// the database per swipe) and the current zone state (who is inside which zone, which doors are open, which are
// locked down), and answers grant or deny with the one reason that decided it and the chain of checks.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DECISION_LABELS, type Decision, type DecisionReason, type DecisionStep } from '../contract/decision';
import { decode, type CardFormat } from '../contract/cardFormat';
import { localTime, type LocalTime } from './clock';
import { SpecialCalendar, scheduleOpen, type Schedule, type SpecialDate } from './schedule';

export interface CredentialFact {
  id: number;
  identityId: number;
  number: string;
  facilityCode: number | null;
  status: string;
  validFrom: string | null;
  validTo: string | null;
}
export interface IdentityFact {
  id: number;
  name: string;
  status: string;
  validFrom: string | null;
  validTo: string | null;
  /** the identity's PIN credential, for card + PIN doors */
  pin: string | null;
}
export type DoorMode = 'card' | 'card-pin' | 'unlocked' | 'locked-down';
export interface DoorFact {
  id: number;
  name: string;
  mode: DoorMode;
  /** the card formats its readers accept; none: card numbers are read as they are */
  formatIds: readonly number[];
  /** the zone a swipe on the entry reader goes into, and the one the exit reader goes into (null: outside every zone) */
  entryZoneId: number | null;
  exitZoneId: number | null;
  /** interlocking groups this door belongs to */
  interlockIds: readonly number[];
  /** the secret of its rotating QR codes, null when it has none */
  qrSecret: string | null;
  /** overrides that hold this door in another mode for a window (ms since the epoch; not yet ended when indexed) */
  overrides?: readonly OverrideFact[];
  /** the threat level in force at this door (its client's, for the whole client or the door's site), if any */
  threat?: ThreatFact | null;
}
/** A threat level in force: what the doors do ('card': nothing more), from when, until when (null: until lowered),
 *  and the access groups whose members still pass. */
export interface ThreatFact {
  levelId: number;
  name: string;
  rank: number;
  mode: 'card' | 'card-pin' | 'locked';
  from: number;
  until: number | null;
  exempt: readonly number[];
}

/** The threat level in force on a door at `at`, if any. */
export const threatAt = (door: DoorFact, at: number): ThreatFact | null =>
  door.threat && at >= door.threat.from && (door.threat.until === null || at < door.threat.until) ? door.threat : null;
/** An override of a door's mode: 'locked' holds it shut for everyone. */
export interface OverrideFact {
  id: number;
  name: string;
  mode: 'unlocked' | 'locked' | 'card-pin' | 'card';
  from: number;
  to: number;
}

/** The override in force on a door at `at`: of those whose window holds it, the one that started last (then the newest). */
export function overrideAt(door: DoorFact, at: number): OverrideFact | null {
  let best: OverrideFact | null = null;
  for (const o of door.overrides ?? []) {
    if (at < o.from || at >= o.to) continue;
    if (!best || o.from > best.from || (o.from === best.from && o.id > best.id)) best = o;
  }
  return best;
}
export interface AccessGroupFact {
  id: number;
  name: string;
  /** door id → schedule id */ doors: ReadonlyMap<number, number>;
}
export interface ZoneFact {
  id: number;
  name: string;
  antiPassback: 'off' | 'soft' | 'hard';
  /** minutes after which a repeat is forgiven; 0 never */ forgiveMinutes: number;
}
export interface InterlockFact {
  id: number;
  name: string;
  doorIds: readonly number[];
}

/** Everything a decision needs of one tenant's configuration, as look-ups. */
export interface AccessIndex {
  timeZone: string;
  credentials: ReadonlyMap<string, CredentialFact>;
  identities: ReadonlyMap<number, IdentityFact>;
  doors: ReadonlyMap<number, DoorFact>;
  /** identity id → the access groups it is a member of */
  groupsOf: ReadonlyMap<number, readonly number[]>;
  groups: ReadonlyMap<number, AccessGroupFact>;
  schedules: ReadonlyMap<number, Schedule>;
  calendar: SpecialCalendar;
  zones: ReadonlyMap<number, ZoneFact>;
  interlocks: ReadonlyMap<number, InterlockFact>;
  formats: ReadonlyMap<number, CardFormat>;
  /** how long one dynamic QR code is current, in seconds */
  qrPeriodS: number;
}

/** What changes by the second: presence per zone, open doors, lockdowns (kept by the caller, not the index). */
export interface ZoneState {
  /** identity id → where it was last let in (zone id, null: outside every zone) and when */
  presence: ReadonlyMap<number, { zoneId: number | null; at: number }>;
  openDoors: ReadonlySet<number>;
  lockedDown: ReadonlySet<number>;
}
export const EMPTY_STATE: ZoneState = { presence: new Map(), openDoors: new Set(), lockedDown: new Set() };

export type Presented = { kind: 'card'; number: string; facilityCode?: number | null } | { kind: 'raw'; bits: string } | { kind: 'qr'; code: string };

export interface SwipeRequest {
  doorId: number;
  /** which reader of the door: the entry side (default) or the exit side */
  side?: 'entry' | 'exit';
  /** ms since the epoch */
  at: number;
  presented: Presented;
  pin?: string | null;
}

// ---------- dynamic QR codes ----------
/** The code a door's QR shows during `window` (= floor(at / period)) for one credential: `GHQ.<number>.<window>.<mac>`. */
export function qrCode(secret: string, credentialNumber: string, window: number): string {
  const mac = createHmac('sha256', secret).update(`${credentialNumber}.${window}`).digest('base64url').slice(0, 16);
  return `GHQ.${credentialNumber}.${window}.${mac}`;
}
export const qrWindow = (at: number, periodS: number) => Math.floor(at / (periodS * 1000));

function readQr(
  secret: string | null,
  code: string,
  at: number,
  periodS: number,
): { number: string } | { problem: 'qr-invalid' | 'qr-expired'; detail: string } {
  const m = /^GHQ\.([^.]{1,64})\.(\d{1,15})\.([A-Za-z0-9_-]{16})$/.exec(code);
  if (!m || !secret) return { problem: 'qr-invalid', detail: secret ? 'not a Gatehouse QR code' : 'this door has no QR codes' };
  const [, number, w] = m;
  const expected = Buffer.from(qrCode(secret, number, Number(w)));
  const given = Buffer.from(code);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { problem: 'qr-invalid', detail: 'the code was not made for this door' };
  const current = qrWindow(at, periodS);
  if (Number(w) !== current)
    return { problem: 'qr-expired', detail: `shown ${Math.max(0, current - Number(w)) * periodS} s ago or more; codes change every ${periodS} s` };
  return { number };
}

// ---------- the decision ----------
const inDates = (today: string, from: string | null, to: string | null): 'ok' | 'early' | 'late' =>
  from && today < from ? 'early' : to && today > to ? 'late' : 'ok';

/** Decides one swipe. Pure: the same index, state and request always give the same decision. */
export function decide(index: AccessIndex, state: ZoneState, req: SwipeRequest): Decision {
  const steps: DecisionStep[] = [];
  let identityId: number | null = null;
  let credentialId: number | null = null;
  let groupIds: number[] = [];
  const deny = (reason: DecisionReason, check: DecisionStep['check'], detail: string): Decision => {
    steps.push({ check, ok: false, detail });
    return { granted: false, reason, identityId, credentialId, accessGroupIds: groupIds, alarm: null, steps };
  };
  const pass = (check: DecisionStep['check'], detail: string) => {
    steps.push({ check, ok: true, detail });
  };

  const door = index.doors.get(req.doorId);
  if (!door) return deny('unknown-credential', 'credential', `door ${req.doorId} is not configured`);
  const t: LocalTime = localTime(req.at, index.timeZone);

  // 1. what was presented → a credential number
  let number: string;
  let facility: number | null | undefined;
  const p = req.presented;
  if (p.kind === 'raw') {
    const formats = door.formatIds.map((id) => index.formats.get(id)).filter((f): f is CardFormat => !!f);
    const r = decode(formats, p.bits);
    if (!r.ok) return deny('wrong-card-format', 'card-format', r.problem);
    pass('card-format', `${r.format}: facility ${r.facility ?? '—'}, card ${r.card}`);
    number = String(r.card);
    facility = r.facility;
  } else if (p.kind === 'qr') {
    const r = readQr(door.qrSecret, p.code, req.at, index.qrPeriodS);
    if ('problem' in r) return deny(r.problem, 'qr', r.detail);
    pass('qr', `current QR code of ${door.name}`);
    number = r.number;
  } else {
    number = p.number;
    facility = p.facilityCode;
  }

  // 2. the credential
  const cred = index.credentials.get(number);
  if (!cred || (cred.facilityCode !== null && facility != null && cred.facilityCode !== facility)) {
    return deny(
      'unknown-credential',
      'credential',
      cred ? `card ${number} is issued with facility ${cred.facilityCode}, not ${facility}` : `no credential numbered ${number}`,
    );
  }
  credentialId = cred.id;
  identityId = cred.identityId;
  if (cred.status !== 'active') return deny('credential-suspended', 'credential', `credential ${number} is ${cred.status}`);
  const cd = inDates(t.date, cred.validFrom, cred.validTo);
  if (cd === 'early') return deny('credential-not-yet-valid', 'credential', `credential ${number} is valid from ${cred.validFrom}`);
  if (cd === 'late') return deny('credential-expired', 'credential', `credential ${number} was valid to ${cred.validTo}`);
  pass('credential', `credential ${number} is active`);

  // 3. the identity
  const who = index.identities.get(cred.identityId);
  if (!who || who.status !== 'active') return deny('identity-inactive', 'identity', who ? `${who.name} is ${who.status}` : 'the identity no longer exists');
  const id = inDates(t.date, who.validFrom, who.validTo);
  if (id === 'early') return deny('identity-not-yet-valid', 'identity', `${who.name} is valid from ${who.validFrom}`);
  if (id === 'late') return deny('identity-expired', 'identity', `${who.name} was valid to ${who.validTo}`);
  pass('identity', `${who.name} is active`);

  // 4. the door's mode: a lockdown outranks everything, then an override in force, then the door's own mode
  if (door.mode === 'locked-down' || state.lockedDown.has(door.id)) return deny('door-locked-down', 'door-mode', `${door.name} is locked down`);
  // a threat level in force outranks overrides and the door's own mode, except for the members of its exempt groups
  const threat = threatAt(door, req.at);
  const exempt = !!threat && threat.exempt.length > 0 && (index.groupsOf.get(who.id) ?? []).some((g) => threat.exempt.includes(g));
  if (threat && threat.mode !== 'card') {
    if (exempt) pass('door-mode', `${who.name} passes at threat level ${threat.name} (a member of an exempt group)`);
    else if (threat.mode === 'locked') return deny('threat-level', 'door-mode', `${door.name} is held locked by threat level ${threat.name}`);
  }
  const held = overrideAt(door, req.at);
  const until = held ? ` by the override ${held.name} until ${new Date(held.to).toISOString()}` : '';
  if (held?.mode === 'locked') return deny('door-locked-down', 'door-mode', `${door.name} is held locked${until}`);
  const mode: DoorMode = threat?.mode === 'card-pin' && !exempt ? 'card-pin' : held ? held.mode : door.mode;
  if (mode === 'card-pin') {
    if (!req.pin) return deny('pin-required', 'pin', `${door.name} needs card and PIN`);
    if (!who.pin || who.pin.length !== req.pin.length || !timingSafeEqual(Buffer.from(who.pin), Buffer.from(req.pin)))
      return deny('wrong-pin', 'pin', 'the PIN does not match');
    pass('pin', 'PIN matches');
  }
  pass(
    'door-mode',
    `${mode === 'unlocked' ? `${door.name} is unlocked` : `${door.name}: ${mode === 'card-pin' ? 'card and PIN' : 'card only'}`}${threat?.mode === 'card-pin' && !exempt ? ` (threat level ${threat.name})` : held ? ` (held${until})` : ''}`,
  );

  // 5. access groups with this door, and their schedules
  const mine = index.groupsOf.get(who.id) ?? [];
  const withDoor = mine.map((g) => index.groups.get(g)).filter((g): g is AccessGroupFact => !!g && g.doors.has(door.id));
  groupIds = withDoor.map((g) => g.id);
  if (!withDoor.length) return deny('no-access-group', 'access-group', `none of ${who.name}'s ${mine.length} access group(s) includes ${door.name}`);
  pass('access-group', withDoor.map((g) => g.name).join(', '));
  const special: SpecialDate | null = index.calendar.on(t);
  let open: { group: AccessGroupFact; detail: string } | null = null;
  let closed: { reason: 'outside-schedule' | 'special-day'; detail: string } | null = null;
  for (const g of withDoor) {
    const schedule = index.schedules.get(g.doors.get(door.id)!);
    if (!schedule) {
      closed ??= { reason: 'outside-schedule', detail: `${g.name}: its schedule no longer exists` };
      continue;
    }
    const a = scheduleOpen(schedule, t, special);
    if (a.open) {
      open = { group: g, detail: `${g.name}: ${a.detail}` };
      break;
    }
    // a special day outranks an ordinary closed window in the reason given
    if (!closed || (a.reason === 'special-day' && closed.reason !== 'special-day')) closed = { reason: a.reason, detail: `${g.name}: ${a.detail}` };
  }
  if (!open) return deny(closed!.reason, 'schedule', closed!.detail);
  groupIds = [open.group.id];
  pass('schedule', open.detail);

  // 6. anti-passback: entering a zone the identity is already in (or leaving one it is not in)
  const target = req.side === 'exit' ? door.exitZoneId : door.entryZoneId;
  const guarded = [target, req.side === 'exit' ? door.entryZoneId : door.exitZoneId]
    .map((z) => (z === null ? undefined : index.zones.get(z)))
    .find((z) => z && z.antiPassback !== 'off');
  let alarm: Decision['alarm'] = null;
  if (guarded) {
    const where = state.presence.get(who.id);
    const repeat = where !== undefined && where.zoneId === target;
    const forgiven = repeat && guarded.forgiveMinutes > 0 && req.at - where.at >= guarded.forgiveMinutes * 60_000;
    if (repeat && !forgiven) {
      const detail = `${who.name} is already ${target === null ? 'outside' : `in ${index.zones.get(target)?.name ?? 'the zone'}`} (since ${new Date(where.at).toISOString()})`;
      if (guarded.antiPassback === 'hard') return deny('anti-passback', 'anti-passback', detail);
      alarm = 'anti-passback';
      steps.push({ check: 'anti-passback', ok: true, detail: `${detail}: soft anti-passback lets through and raises an alarm` });
    } else {
      pass('anti-passback', forgiven ? `repeat forgiven after ${guarded.forgiveMinutes} min` : 'no repeat');
    }
  }

  // 7. interlocks: no other door of the door's groups may be open
  for (const il of door.interlockIds) {
    const group = index.interlocks.get(il);
    const busy = group?.doorIds.find((d) => d !== door.id && state.openDoors.has(d));
    if (busy !== undefined) return deny('interlock-busy', 'interlock', `${index.doors.get(busy)?.name ?? `door ${busy}`} of ${group!.name} is open`);
  }
  if (door.interlockIds.length) pass('interlock', 'every other door of the interlock is closed');

  return { granted: true, reason: 'granted', identityId, credentialId, accessGroupIds: groupIds, alarm, steps };
}

/** The decision in one line for an event's message. */
export const decisionMessage = (d: Decision) => (d.granted ? DECISION_LABELS.granted : `${DECISION_LABELS[d.reason]} (${d.steps.at(-1)?.detail ?? ''})`);

/** The zone state after a granted swipe: the identity is now where the reader's side leads (the caller keeps it). */
export function afterGrant(state: ZoneState, index: AccessIndex, req: SwipeRequest, d: Decision): ZoneState {
  const entry = presenceAfter(index, req, d);
  if (!entry) return state;
  const presence = new Map(state.presence);
  presence.set(entry[0], entry[1]);
  return { ...state, presence };
}

/**
 * Where a grant puts its identity (anti-passback): [identity id, zone and when], or null (denied, or a door no longer
 * configured). For a holder of its own state (the edge), which records it in place: afterGrant copies the whole
 * presence map, a cost that grows with everyone present.
 */
export function presenceAfter(index: AccessIndex, req: SwipeRequest, d: Decision): [number, { zoneId: number | null; at: number }] | null {
  if (!d.granted || d.identityId === null) return null;
  const door = index.doors.get(req.doorId);
  if (!door) return null;
  return [d.identityId, { zoneId: req.side === 'exit' ? door.exitZoneId : door.entryZoneId, at: req.at }];
}

/** An operator's "forgive": the identity's anti-passback history is dropped, its next swipe anywhere is a first. */
export function forgive(state: ZoneState, identityId: number): ZoneState {
  if (!state.presence.has(identityId)) return state;
  const presence = new Map(state.presence);
  presence.delete(identityId);
  return { ...state, presence };
}
