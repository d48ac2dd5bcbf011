// The access-decision engine (issue 12): one pure function that the simulator, the door commands and the "Why?"
// explainer all use. It reads an index built from the configuration (AccessIndex: maps kept current on change, never
// the database per swipe) and the current zone state (who is inside which zone, which doors are open, which are
// locked down), and answers grant or deny with the one reason that decided it and the chain of checks.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DECISION_LABELS, type Decision, type DecisionReason, type DecisionStep } from '../contract/decision';
import { decode, type CardFormat, type DecodeResult } from '../contract/cardFormat';
import { fill, sentenceValue, type Sentence } from '../contract/messages';
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
): { number: string } | { problem: 'qr-invalid' | 'qr-expired'; detail: Sentence } {
  const m = /^GHQ\.([^.]{1,64})\.(\d{1,15})\.([A-Za-z0-9_-]{16})$/.exec(code);
  if (!m || !secret)
    return {
      problem: 'qr-invalid',
      detail: secret ? fill('why.qrNotGatehouse', 'not a Gatehouse QR code', {}) : fill('why.qrNoneAtDoor', 'this door has no QR codes', {}),
    };
  const [, number, w] = m;
  const expected = Buffer.from(qrCode(secret, number, Number(w)));
  const given = Buffer.from(code);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { problem: 'qr-invalid', detail: fill('why.qrOtherDoor', 'the code was not made for this door', {}) };
  const current = qrWindow(at, periodS);
  if (Number(w) !== current)
    return {
      problem: 'qr-expired',
      detail: fill('why.qrExpired', 'shown {ago} s ago or more; codes change every {period} s', {
        ago: Math.max(0, current - Number(w)) * periodS,
        period: periodS,
      }),
    };
  return { number };
}

// ---------- the decision ----------
/** Why no format of the reader decoded a card: each format's problem said by its key, the next ones inside it. */
function undecoded(r: Extract<DecodeResult, { ok: false }>): Sentence {
  const failures = r.failures ?? [];
  if (!failures.length) return fill('why.noCardFormat', 'this reader accepts no card format', {});
  return failures.reduceRight<Sentence | null>((more, x) => {
    const values = { format: x.format, ...sentenceValue('problem', { message: x.problem, code: x.why.code, values: x.why.vars }) };
    return more
      ? fill('why.cardFormatFailedMore', '{format}: {problem}; {more}', { ...values, ...sentenceValue('more', more) })
      : fill('why.cardFormatFailed', '{format}: {problem}', values);
  }, null)!;
}
const inDates = (today: string, from: string | null, to: string | null): 'ok' | 'early' | 'late' =>
  from && today < from ? 'early' : to && today > to ? 'late' : 'ok';

/** Decides one swipe. Pure: the same index, state and request always give the same decision. */
export function decide(index: AccessIndex, state: ZoneState, req: SwipeRequest): Decision {
  const steps: DecisionStep[] = [];
  let identityId: number | null = null;
  let credentialId: number | null = null;
  let groupIds: number[] = [];
  // every detail is a sentence with its key and values (issue 48): English for the logs and the API, the key for the console
  const deny = (reason: DecisionReason, check: DecisionStep['check'], said: Sentence): Decision => {
    steps.push({ check, ok: false, detail: said.message, code: said.code, values: said.values });
    return { granted: false, reason, identityId, credentialId, accessGroupIds: groupIds, alarm: null, steps };
  };
  const pass = (check: DecisionStep['check'], said: Sentence) => {
    steps.push({ check, ok: true, detail: said.message, code: said.code, values: said.values });
  };

  const door = index.doors.get(req.doorId);
  if (!door) return deny('unknown-credential', 'credential', fill('why.doorNotConfigured', 'door {id} is not configured', { id: req.doorId }));
  const t: LocalTime = localTime(req.at, index.timeZone);

  // 1. what was presented → a credential number
  let number: string;
  let facility: number | null | undefined;
  const p = req.presented;
  if (p.kind === 'raw') {
    const formats = door.formatIds.map((id) => index.formats.get(id)).filter((f): f is CardFormat => !!f);
    const r = decode(formats, p.bits);
    if (!r.ok) return deny('wrong-card-format', 'card-format', undecoded(r));
    pass('card-format', fill('why.cardRead', '{format}: facility {facility}, card {card}', { format: r.format, facility: r.facility ?? '—', card: r.card }));
    number = String(r.card);
    facility = r.facility;
  } else if (p.kind === 'qr') {
    const r = readQr(door.qrSecret, p.code, req.at, index.qrPeriodS);
    if ('problem' in r) return deny(r.problem, 'qr', r.detail);
    pass('qr', fill('why.qrCurrent', 'current QR code of {door}', { door: door.name }));
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
      cred
        ? fill('why.cardOtherFacility', 'card {card} is issued with facility {facility}, not {given}', {
            card: number,
            facility: cred.facilityCode!,
            given: facility!,
          })
        : fill('why.noCredential', 'no credential numbered {card}', { card: number }),
    );
  }
  credentialId = cred.id;
  identityId = cred.identityId;
  if (cred.status !== 'active')
    return deny('credential-suspended', 'credential', fill('why.credentialState', 'credential {card} is {state}', { card: number, state: cred.status }));
  const cd = inDates(t.date, cred.validFrom, cred.validTo);
  if (cd === 'early')
    return deny(
      'credential-not-yet-valid',
      'credential',
      fill('why.credentialNotYet', 'credential {card} is valid from {from}', { card: number, from: cred.validFrom! }),
    );
  if (cd === 'late')
    return deny('credential-expired', 'credential', fill('why.credentialExpired', 'credential {card} was valid to {to}', { card: number, to: cred.validTo! }));
  pass('credential', fill('why.credentialActive', 'credential {card} is active', { card: number }));

  // 3. the identity
  const who = index.identities.get(cred.identityId);
  if (!who || who.status !== 'active')
    return deny(
      'identity-inactive',
      'identity',
      who
        ? fill('why.identityState', '{name} is {state}', { name: who.name, state: who.status })
        : fill('why.identityGone', 'the identity no longer exists', {}),
    );
  const id = inDates(t.date, who.validFrom, who.validTo);
  if (id === 'early')
    return deny('identity-not-yet-valid', 'identity', fill('why.identityNotYet', '{name} is valid from {from}', { name: who.name, from: who.validFrom! }));
  if (id === 'late') return deny('identity-expired', 'identity', fill('why.identityExpired', '{name} was valid to {to}', { name: who.name, to: who.validTo! }));
  pass('identity', fill('why.identityActive', '{name} is active', { name: who.name }));

  // 4. the door's mode: a lockdown outranks everything, then an override in force, then the door's own mode
  if (door.mode === 'locked-down' || state.lockedDown.has(door.id))
    return deny('door-locked-down', 'door-mode', fill('why.doorLockedDown', '{door} is locked down', { door: door.name }));
  // a threat level in force outranks overrides and the door's own mode, except for the members of its exempt groups
  const threat = threatAt(door, req.at);
  const exempt = !!threat && threat.exempt.length > 0 && (index.groupsOf.get(who.id) ?? []).some((g) => threat.exempt.includes(g));
  if (threat && threat.mode !== 'card') {
    if (exempt)
      pass(
        'door-mode',
        fill('why.threatExempt', '{name} passes at threat level {level} (a member of an exempt group)', { name: who.name, level: threat.name }),
      );
    else if (threat.mode === 'locked')
      return deny(
        'threat-level',
        'door-mode',
        fill('why.threatLocked', '{door} is held locked by threat level {level}', { door: door.name, level: threat.name }),
      );
  }
  const held = overrideAt(door, req.at);
  const by = held ? { door: door.name, override: held.name, until: new Date(held.to).toISOString() } : null;
  if (held?.mode === 'locked')
    return deny('door-locked-down', 'door-mode', fill('why.overrideLocked', '{door} is held locked by the override {override} until {until}', by!));
  const mode: DoorMode = threat?.mode === 'card-pin' && !exempt ? 'card-pin' : held ? held.mode : door.mode;
  if (mode === 'card-pin') {
    if (!req.pin) return deny('pin-required', 'pin', fill('why.pinNeeded', '{door} needs card and PIN', { door: door.name }));
    if (!who.pin || who.pin.length !== req.pin.length || !timingSafeEqual(Buffer.from(who.pin), Buffer.from(req.pin)))
      return deny('wrong-pin', 'pin', fill('why.pinWrong', 'the PIN does not match', {}));
    pass('pin', fill('why.pinMatches', 'PIN matches', {}));
  }
  pass('door-mode', doorModeSaid(door.name, mode, threat?.mode === 'card-pin' && !exempt ? threat.name : null, by));

  // 5. access groups with this door, and their schedules
  const mine = index.groupsOf.get(who.id) ?? [];
  const withDoor = mine.map((g) => index.groups.get(g)).filter((g): g is AccessGroupFact => !!g && g.doors.has(door.id));
  groupIds = withDoor.map((g) => g.id);
  if (!withDoor.length)
    return deny(
      'no-access-group',
      'access-group',
      fill('why.noGroupWithDoor', "none of {name}'s {count} access group(s) includes {door}", { name: who.name, count: mine.length, door: door.name }),
    );
  pass('access-group', fill('why.groupsWithDoor', '{groups}', { groups: withDoor.map((g) => g.name).join(', ') }));
  const special: SpecialDate | null = index.calendar.on(t);
  const ofGroup = (g: AccessGroupFact, said: Sentence) =>
    fill('why.groupSchedule', '{group}: {schedule}', { group: g.name, ...sentenceValue('schedule', said) });
  let open: { group: AccessGroupFact; detail: Sentence } | null = null;
  let closed: { reason: 'outside-schedule' | 'special-day'; detail: Sentence } | null = null;
  for (const g of withDoor) {
    const schedule = index.schedules.get(g.doors.get(door.id)!);
    if (!schedule) {
      closed ??= { reason: 'outside-schedule', detail: fill('why.scheduleGone', '{group}: its schedule no longer exists', { group: g.name }) };
      continue;
    }
    const a = scheduleOpen(schedule, t, special);
    if (a.open) {
      open = { group: g, detail: ofGroup(g, a.detail) };
      break;
    }
    // a special day outranks an ordinary closed window in the reason given
    if (!closed || (a.reason === 'special-day' && closed.reason !== 'special-day')) closed = { reason: a.reason, detail: ofGroup(g, a.detail) };
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
      const since = { name: who.name, since: new Date(where.at).toISOString() };
      const zone = target === null ? null : index.zones.get(target);
      const repeated =
        target === null
          ? fill('why.alreadyOutside', '{name} is already outside (since {since})', since)
          : zone
            ? fill('why.alreadyIn', '{name} is already in {zone} (since {since})', { ...since, zone: zone.name })
            : fill('why.alreadyInZone', '{name} is already in the zone (since {since})', since);
      if (guarded.antiPassback === 'hard') return deny('anti-passback', 'anti-passback', repeated);
      alarm = 'anti-passback';
      pass('anti-passback', fill('why.softAntiPassback', '{repeat}: soft anti-passback lets through and raises an alarm', sentenceValue('repeat', repeated)));
    } else {
      pass(
        'anti-passback',
        forgiven
          ? fill('why.repeatForgiven', 'repeat forgiven after {minutes} min', { minutes: guarded.forgiveMinutes })
          : fill('why.noRepeat', 'no repeat', {}),
      );
    }
  }

  // 7. interlocks: no other door of the door's groups may be open
  for (const il of door.interlockIds) {
    const group = index.interlocks.get(il);
    const busy = group?.doorIds.find((d) => d !== door.id && state.openDoors.has(d));
    if (busy !== undefined) {
      const other = index.doors.get(busy);
      return deny(
        'interlock-busy',
        'interlock',
        other
          ? fill('why.interlockOpen', '{door} of {interlock} is open', { door: other.name, interlock: group!.name })
          : fill('why.interlockDoorOpen', 'door {id} of {interlock} is open', { id: busy, interlock: group!.name }),
      );
    }
  }
  if (door.interlockIds.length) pass('interlock', fill('why.interlockClosed', 'every other door of the interlock is closed', {}));

  return { granted: true, reason: 'granted', identityId, credentialId, accessGroupIds: groupIds, alarm, steps };
}

/** How the door let the card through: its mode, and the threat level or the override that holds it so. */
function doorModeSaid(door: string, mode: DoorMode, threat: string | null, by: { override: string; until: string } | null): Sentence {
  if (threat !== null) return fill('why.cardAndPinThreat', '{door}: card and PIN (threat level {level})', { door, level: threat });
  const held = by ? { door, override: by.override, until: by.until } : null;
  if (mode === 'unlocked')
    return held
      ? fill('why.unlockedHeld', '{door} is unlocked (held by the override {override} until {until})', held)
      : fill('why.unlocked', '{door} is unlocked', { door });
  if (mode === 'card-pin')
    return held
      ? fill('why.cardAndPinHeld', '{door}: card and PIN (held by the override {override} until {until})', held)
      : fill('why.cardAndPin', '{door}: card and PIN', { door });
  return held
    ? fill('why.cardOnlyHeld', '{door}: card only (held by the override {override} until {until})', held)
    : fill('why.cardOnly', '{door}: card only', { door });
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
