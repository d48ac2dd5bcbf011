// Card swipes in the simulator (server/simulator/hardware.ts): a swipe at a door's reader decided by the
// access-decision engine (access/engine.ts) over the tenant's access index, with the zone state (who is where,
// which doors are open) of the doors' live state; each swipe event stores the identity, the decision and its reason,
// and "Why?" decides a stored swipe again.
import { EVENT_CODES, eventLabel, fill, type Event } from '../../contract';
import { DECISION_EVENT_CODES, DECISION_LABELS, type Decision, type DecisionReason, type DecisionStep, type Explanation } from '../../contract/decision';
import { decide, decisionMessage, threatAt, type AccessIndex, type SwipeRequest } from '../../access/engine';
import type { AccessIndexes } from '../access/index';
import type { Db } from '../db/db';
import { storedSwipeEvent } from '../db/queries/simulator';
import type { DoorLiveState } from '../doors/liveState';
import type { Pipeline } from '../monitor/pipeline';
import { said } from '../monitor/events';
import type { DoorRow } from './hardwareRows';

/** The words a swipe's event is stored with: its reason's label; a threat level's names the level (5013 "Access
 *  denied: threat level NC1 Red"), as the lockdown's 5004 says "door locked down". */
function labelOf(d: Decision, index: AccessIndex, doorId: number, at: number): string {
  if (d.granted) return DECISION_LABELS.granted;
  const door = d.reason === 'threat-level' ? index.doors.get(doorId) : undefined;
  const level = door ? threatAt(door, at) : null;
  return level ? `${DECISION_LABELS[d.reason]} ${level.name}` : DECISION_LABELS[d.reason];
}

/** A swipe's event message with its key (issue 48): the decision's label (with the threat level's name when one refused
 *  it: "Access denied: threat level NC1 Red"), who, the card (null: a QR code) and the door. */
function swipeSaid(d: Decision, index: AccessIndex, door: DoorRow, at: number, card: string | null, who: string | null) {
  const threat = d.reason === 'threat-level' ? index.doors.get(door.id) : undefined;
  const level = threat ? threatAt(threat, at)?.name : undefined;
  const event = DECISION_LABELS[d.granted ? 'granted' : d.reason];
  if (level === undefined)
    return card === null
      ? fill('event.swipeQr', '{event}: {who} (QR code) at {door}', { event, who: who ?? 'unknown QR code', door: door.name })
      : fill('event.swipeCard', '{event}: {who} (card {card}) at {door}', { event, who: who ?? 'unknown card', card, door: door.name });
  return card === null
    ? fill('event.swipeQrAtLevel', '{event} {level}: {who} (QR code) at {door}', { event, level, who: who ?? 'unknown QR code', door: door.name })
    : fill('event.swipeCardAtLevel', '{event} {level}: {who} (card {card}) at {door}', { event, level, who: who ?? 'unknown card', card, door: door.name });
}

/** A swipe's extras (the test hook): when it happens (the simulated clock) and on which reader of the door. */
export interface SwipeOptions {
  at?: number;
  side?: 'entry' | 'exit';
  pin?: string | null;
}
/** What a swipe event keeps beside its code, so the explainer can decide it again. */
/** What a swipe presented, kept on its event for Why?: a card number, or a QR code (then `card` is its credential's number, or '' when unreadable). */
interface StoredSwipe {
  card: string;
  at: number;
  side: 'entry' | 'exit';
  doorId: number;
  qr?: string;
  /** decided at a Gatehouse Edge (server/edge/ingest.ts): how, and with the chain its engine ran over its snapshot */
  edge?: { offline: boolean; snapshotVersion: number; snapshotBuiltAt?: string; receivedAt?: string; steps?: DecisionStep[] };
}

/** The credential/identity facts a swipe is decided on. */
export interface SwipeFacts {
  credentialStatus: string;
  credentialFrom: string | null;
  credentialTo: string | null;
  identityStatus: string;
  identityFrom: string | null;
  identityTo: string | null;
}

/** The access rule: the credential exists, is active and valid today, and its identity is active and valid today. */
export function accessDecision(facts: SwipeFacts | null, today: string): EventCodeOfSwipe {
  if (!facts) return EVENT_CODES.deniedUnknownCredential;
  const inRange = (from: string | null, to: string | null) => (!from || from <= today) && (!to || to >= today);
  if (facts.credentialStatus !== 'active' || !inRange(facts.credentialFrom, facts.credentialTo)) return EVENT_CODES.deniedInactiveCredential;
  if (facts.identityStatus !== 'active' || !inRange(facts.identityFrom, facts.identityTo)) return EVENT_CODES.deniedInactiveIdentity;
  return EVENT_CODES.accessGranted;
}
type EventCodeOfSwipe =
  | typeof EVENT_CODES.accessGranted
  | typeof EVENT_CODES.deniedUnknownCredential
  | typeof EVENT_CODES.deniedInactiveCredential
  | typeof EVENT_CODES.deniedInactiveIdentity;

export function createSwipes({
  db,
  pipeline,
  access,
  live,
  random,
}: {
  db: Db;
  pipeline: Pipeline;
  access: AccessIndexes;
  live: DoorLiveState;
  random: () => number;
}) {
  const { stateOf, ensurePresence, refreshPresence } = live;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

  async function swipe(d: DoorRow, wantGranted: boolean | null, o: SwipeOptions = {}): Promise<Event> {
    let number: string;
    if (wantGranted === false || (wantGranted === null && random() < 0.1))
      number = `9${Math.floor(random() * 1e8)}`; // nobody's card
    else {
      // a card the engine grants here and now (wanted), or any of the tenant's cards (random traffic)
      const index = await access.get(d.client_id);
      await ensurePresence(d.client_id);
      const at = o.at ?? Date.now();
      const cards = [...index.credentials.keys()];
      let found: string | undefined;
      // a wanted grant is one that raises nothing (soft anti-passback grants with an alarm: issue 50, believable traffic)
      for (let tries = 0; tries < 50 && cards.length; tries++) {
        const c = pick(cards);
        const tried = wantGranted ? decide(index, stateOf(d.client_id), { doorId: d.id, at, side: o.side, presented: { kind: 'card', number: c } }) : null;
        if (!tried || (tried.granted && !tried.alarm)) {
          found = c;
          break;
        }
      }
      if (!found && wantGranted)
        found = cards.find((c) => decide(index, stateOf(d.client_id), { doorId: d.id, at, side: o.side, presented: { kind: 'card', number: c } }).granted);
      number = found ?? `9${Math.floor(random() * 1e8)}`;
    }
    return swipeCard(d, number, o);
  }

  /** A swipe of card `number` at door `d`, decided by the engine over the tenant's access index. */
  async function swipeCard(d: DoorRow, number: string, o: SwipeOptions & { qr?: string } = {}): Promise<Event> {
    const index = await access.get(d.client_id);
    const req: SwipeRequest = {
      doorId: d.id,
      side: o.side ?? 'entry',
      at: o.at ?? Date.now(),
      presented: o.qr ? { kind: 'qr', code: o.qr } : { kind: 'card', number },
      pin: o.pin,
    };
    await ensurePresence(d.client_id);
    const holder = o.qr ? undefined : index.credentials.get(number)?.identityId;
    if (holder !== undefined) await refreshPresence(d.client_id, holder);
    const decision = decide(index, stateOf(d.client_id), req);
    await live.admitted(d.client_id, index, req, decision);
    const who = decision.identityId === null ? null : (index.identities.get(decision.identityId)?.name ?? null);
    const code = DECISION_EVENT_CODES[decision.reason];
    const stored: StoredSwipe = { card: number, at: req.at, side: req.side ?? 'entry', doorId: d.id, ...(o.qr ? { qr: o.qr } : {}) };
    // the decision goes in with the event (one insert of the batch; it used to be an update per swipe after it)
    const e = await pipeline.record(d.client_id, {
      eventCode: code,
      sourceId: `reader-${d.id}`,
      sourceName: `${d.name} reader`,
      pointId: `reader-${d.id}`,
      pointName: `${d.name} reader`,
      // issue 48: the message as a sentence with its key, said in the operator's language by the console
      ...said(swipeSaid(decision, index, d, req.at, o.qr ? null : number, who)),
      decided: { identityId: decision.identityId, decision: decision.granted ? 'granted' : 'denied', reason: decision.reason, swipe: stored },
    });
    if (decision.alarm === 'anti-passback') {
      await pipeline.record(d.client_id, {
        eventCode: EVENT_CODES.antiPassbackViolation,
        sourceId: `reader-${d.id}`,
        sourceName: `${d.name} reader`,
        pointId: `apb-${d.id}`,
        pointName: `${d.name} anti-passback`,
        ...said(
          fill('event.antiPassbackLetThrough', '{event}: {who} (card {card}) at {door} — {decision}', {
            event: eventLabel(EVENT_CODES.antiPassbackViolation),
            who: who ?? 'unknown',
            card: number,
            door: d.name,
            decision: decisionMessage(decision),
          }),
        ),
      });
    }
    return e;
  }

  /** "Why?": the stored swipe event `eventId` of `clientId` decided again against the current index (null: not a swipe of this tenant). */
  async function explain(clientId: number, eventId: number): Promise<Explanation | null> {
    const row = await storedSwipeEvent<StoredSwipe>(db, clientId, eventId);
    if (!row || !row.swipe) return null;
    const sw: StoredSwipe = typeof row.swipe === 'string' ? JSON.parse(row.swipe) : row.swipe;
    const index = await access.get(clientId);
    await ensurePresence(clientId);
    // decided as it was: the same card, door, reader side and time, against today's configuration and zone state
    const now: Decision = decide(index, stateOf(clientId), {
      doorId: sw.doorId,
      side: sw.side,
      at: sw.at,
      presented: sw.qr ? { kind: 'qr', code: sw.qr } : { kind: 'card', number: sw.card },
    });
    const identityId = now.identityId ?? row.identity_id;
    const e = sw.edge;
    const reason = row.reason as DecisionReason | null;
    return {
      // decided at an edge: what it decided there and why, from the snapshot it held (issue 47)
      ...(e
        ? {
            edge: {
              offline: !!e.offline,
              snapshotVersion: Number(e.snapshotVersion) || 0,
              snapshotBuiltAt: e.snapshotBuiltAt ?? null,
              // when it reached the server: the stored row's time (an edge's swipe is stored as it arrives; older rows said it)
              receivedAt: e.receivedAt ?? new Date(row.at).toISOString(),
              decided: e.steps && reason ? { granted: row.decision === 'granted', reason, label: DECISION_LABELS[reason] ?? reason, steps: e.steps } : null,
            },
          }
        : {}),
      eventId: Number(row.id),
      stored: {
        reason: (row.reason as Explanation['stored']['reason']) ?? null,
        decision: (row.decision as 'granted' | 'denied' | null) ?? null,
        identityId: row.identity_id,
      },
      now: { ...now, label: labelOf(now, index, sw.doorId, sw.at) },
      swipe: { doorId: sw.doorId, doorName: index.doors.get(sw.doorId)?.name ?? null, card: sw.card, at: new Date(sw.at).toISOString(), side: sw.side },
      identityName: identityId === null ? null : (index.identities.get(identityId)?.name ?? null),
    };
  }

  return { swipe, swipeCard, explain };
}
