// The doors' live state per tenant, as the access engine decides on it (access/engine.ts ZoneState): who is
// inside which zone (anti-passback; kept in the database by presence.ts, loaded per tenant on first use, and one
// identity's row read again at its swipe, so a second server decides from what any server last let that person do),
// and which doors stand open (interlocks). Whatever drives the doors (the simulator) keeps it current. Each tenant's
// state is held in place (its own Map and Set, changed where they are, as the edge does: edge/doors.ts): a grant sets
// one entry instead of copying everyone present, a cost that grew with the presence map.
import { DOOR_STATUSES } from '../../contract';
import type { Decision } from '../../contract/decision';
import { presenceAfter, type AccessIndex, type SwipeRequest, type ZoneState } from '../../access/engine';
import type { Db } from '../db/db';
import { dropPresence, loadPresence, presenceOf, savePresence } from './presence';

/** Door states in which the door stands open (an interlock's other doors must stay shut meanwhile). */
const OPEN_STATUSES: readonly string[] = [DOOR_STATUSES.forcedOpen, DOOR_STATUSES.heldOpen, DOOR_STATUSES.unlocked, DOOR_STATUSES.unlockedBriefly];

export type DoorLiveState = ReturnType<typeof createDoorLiveState>;

export function createDoorLiveState(db: Db) {
  /** per tenant: who is where (anti-passback), which doors stand open (interlocks), which are locked down; changed in place */
  const zoneStates = new Map<number, Held>();
  const held = (clientId: number): Held => {
    let st = zoneStates.get(clientId);
    if (!st) zoneStates.set(clientId, (st = { presence: new Map(), openDoors: new Set(), lockedDown: new Set() }));
    return st;
  };
  const stateOf = (clientId: number): ZoneState => held(clientId);
  /** tenants whose presence was read from the database (migration 094) since start or reset */
  const presenceLoaded = new Map<number, Promise<void>>();
  function ensurePresence(clientId: number): Promise<void> {
    let p = presenceLoaded.get(clientId);
    if (!p) {
      p = loadPresence(db, clientId).then((presence) => {
        const st = held(clientId);
        st.presence.clear();
        for (const [k, v] of presence) st.presence.set(k, v);
      });
      p.catch(() => presenceLoaded.delete(clientId));
      presenceLoaded.set(clientId, p);
    }
    return p;
  }
  /** One identity's presence as the database has it now (another server may have let them in or out since). */
  async function refreshPresence(clientId: number, identityId: number) {
    await ensurePresence(clientId);
    const fresh = await presenceOf(db, clientId, identityId);
    const { presence } = held(clientId);
    const mine = presence.get(identityId);
    if (mine?.zoneId === fresh?.zoneId && mine?.at === fresh?.at) return;
    if (fresh) presence.set(identityId, fresh);
    else presence.delete(identityId);
  }
  /** A door's status changed: it stands open or shut for the interlocks. */
  function doorStatus(clientId: number, doorId: number, status: string) {
    const open = OPEN_STATUSES.includes(status);
    const { openDoors } = held(clientId);
    if (open) openDoors.add(doorId);
    else openDoors.delete(doorId);
  }
  /** A swipe the engine decided (`d`, of `req` over `index`): a grant's presence (access/engine.ts presenceAfter) is
   *  written to the database before its event is recorded (a console that sees the grant finds the person inside),
   *  then set in the tenant's map in place. */
  async function admitted(clientId: number, index: AccessIndex, req: SwipeRequest, d: Decision) {
    const entry = presenceAfter(index, req, d);
    if (!entry) return;
    const [identityId, now] = entry;
    await savePresence(db, clientId, identityId, now);
    held(clientId).presence.set(identityId, now);
  }
  return {
    stateOf,
    ensurePresence,
    refreshPresence,
    doorStatus,
    admitted,
    /** Tests: forget who is where in a tenant (anti-passback starts afresh), in memory and in the database. */
    async reset(clientId: number) {
      await dropPresence(db, clientId);
      zoneStates.delete(clientId);
      presenceLoaded.delete(clientId);
    },
    /** An operator forgave one identity (the caller deleted its row in the same transaction as the audit): memory follows. */
    forgiven(clientId: number, identityId: number) {
      zoneStates.get(clientId)?.presence.delete(identityId);
    },
  };
}

interface Held {
  presence: Map<number, { zoneId: number | null; at: number }>;
  openDoors: Set<number>;
  lockedDown: Set<number>;
}
