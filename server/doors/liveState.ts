// The doors' live state per tenant, as the access engine decides on it (access/engine.ts ZoneState): who is
// inside which zone (anti-passback; kept in the database by presence.ts, loaded per tenant on first use, and one
// identity's row read again at its swipe, so a second server decides from what any server last let that person do),
// and which doors stand open (interlocks). Whatever drives the doors (the simulator) keeps it current.
import { DOOR_STATUSES } from '../../contract';
import { EMPTY_STATE, type ZoneState } from '../../access/engine';
import type { Db } from '../db/db';
import { dropPresence, loadPresence, presenceOf, savePresence } from './presence';

/** Door states in which the door stands open (an interlock's other doors must stay shut meanwhile). */
const OPEN_STATUSES: readonly string[] = [DOOR_STATUSES.forcedOpen, DOOR_STATUSES.heldOpen, DOOR_STATUSES.unlocked, DOOR_STATUSES.unlockedBriefly];

export type DoorLiveState = ReturnType<typeof createDoorLiveState>;

export function createDoorLiveState(db: Db) {
  /** per tenant: who is where (anti-passback), which doors stand open (interlocks), which are locked down */
  const zoneStates = new Map<number, ZoneState>();
  const stateOf = (clientId: number): ZoneState => zoneStates.get(clientId) ?? EMPTY_STATE;
  /** tenants whose presence was read from the database (migration 094) since start or reset */
  const presenceLoaded = new Map<number, Promise<void>>();
  function ensurePresence(clientId: number): Promise<void> {
    let p = presenceLoaded.get(clientId);
    if (!p) {
      p = loadPresence(db, clientId).then((presence) => {
        zoneStates.set(clientId, { ...stateOf(clientId), presence });
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
    const st = stateOf(clientId);
    const mine = st.presence.get(identityId);
    if (mine?.zoneId === fresh?.zoneId && mine?.at === fresh?.at) return;
    const presence = new Map(st.presence);
    if (fresh) presence.set(identityId, fresh);
    else presence.delete(identityId);
    zoneStates.set(clientId, { ...st, presence });
  }
  /** A door's status changed: it stands open or shut for the interlocks. */
  function doorStatus(clientId: number, doorId: number, status: string) {
    const open = OPEN_STATUSES.includes(status);
    const st = stateOf(clientId);
    if (st.openDoors.has(doorId) === open) return;
    const openDoors = new Set(st.openDoors);
    if (open) openDoors.add(doorId);
    else openDoors.delete(doorId);
    zoneStates.set(clientId, { ...st, openDoors });
  }
  /** A granted swipe moved the tenant to `after`: the identity's new presence is written before its event is recorded
   *  (a console that sees the grant finds the person inside). */
  async function admitted(clientId: number, identityId: number, after: ZoneState) {
    const now = after.presence.get(identityId);
    if (now && now !== stateOf(clientId).presence.get(identityId)) await savePresence(db, clientId, identityId, now);
    zoneStates.set(clientId, after);
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
      const st = stateOf(clientId);
      if (!st.presence.has(identityId)) return;
      const presence = new Map(st.presence);
      presence.delete(identityId);
      zoneStates.set(clientId, { ...st, presence });
    },
  };
}
