// Who is inside which access zone (issue 12): the doors room's presence, kept in the database. Its SQL is the
// presence room's query module (server/db/queries/presence.ts); callers keep importing it from here.
export { dropPresence, loadPresence, presenceOf, savePresence, zoneCounts, zoneOccupants, type Presence } from '../db/queries/presence';
