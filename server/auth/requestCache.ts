// The request path's cache (issue 13: every authenticated request re-read grants, role privileges and the
// division tree, and wrote last-seen). Per server: whether a session is open, each user's privilege entries per
// client, and the clients a user holds grants in. One counter row (auth_epoch, bumped by triggers whenever grants,
// roles, divisions change or a session ends) is read per request; when it moved, everything cached is dropped, so
// an ended session is refused on its very next request, on any server sharing the database. On the embedded
// database, which no other process writes, the counter announces its moves (migration 102) and is read only after one.
import type { PrivilegeEntry } from '../../contract';
import type { Db } from '../db/db';
import { authEpoch, epochAnnounced } from '../db/queries/authEpoch';
import { touchSession } from '../db/queries/sessions';
import { clientIdsOf, privilegeEntries } from './access';
import { clientDivisionIds } from './eventScope';
import { sessionWithinSettings } from './policy';

/** How often a busy session's last-seen time is written at most. */
export const LAST_SEEN_EVERY_MS = 60_000;
/** Cached items at most (sessions, entries, client lists each); past it the cache starts over. */
const MAX_ITEMS = 20_000;

export interface RequestCache {
  /**
   * Whether the session is open and is `userId`'s (a token's subject must be its session's user); its last-seen is
   * written at most every LAST_SEEN_EVERY_MS.
   */
  sessionOpen(jti: string, userId: number): Promise<boolean>;
  entries(userId: number, clientId: number | null): Promise<PrivilegeEntry[]>;
  clientIds(userId: number): Promise<number[]>;
  /** A client's division ids (the divisions a grant may cover: server/auth/eventScope.ts). */
  divisionIds(clientId: number): Promise<number[]>;
  /** Counters for tests and the bench: database reads the cache saved and made. */
  readonly stats: { hits: number; misses: number; epochReads: number };
}

export function createRequestCache(db: Db, now: () => number = Date.now): RequestCache {
  let epoch: string | null = null;
  const sessions = new Map<string, { userId: number; at: number }>(); // jti → its user, when last-seen was written
  const entries = new Map<string, Promise<PrivilegeEntry[]>>();
  const clients = new Map<number, Promise<number[]>>();
  const divisions = new Map<number, Promise<number[]>>();
  const stats = { hits: 0, misses: 0, epochReads: 0 };
  // told of every move (PGlite): the counter is read again only after a notice, not on every request
  let told = false;
  let moved = true;
  // (only where the counter's trigger announces its moves: a database not yet migrated is read per request)
  db.listen?.('auth_epoch', () => {
    moved = true;
  })
    .then(() => epochAnnounced(db))
    .then(
      (announced) => {
        told = announced;
        moved = true;
      },
      () => {
        /* read per request */
      },
    );

  async function fresh(): Promise<void> {
    if (told && !moved && epoch !== null && sessions.size + entries.size + clients.size + divisions.size <= MAX_ITEMS) return;
    moved = false; // a notice during the read below makes the next request read again
    stats.epochReads++;
    const current = await authEpoch(db);
    if (current === null || current !== epoch || sessions.size + entries.size + clients.size + divisions.size > MAX_ITEMS) {
      sessions.clear();
      entries.clear();
      clients.clear();
      divisions.clear();
      epoch = current; // null (no counter row): never trusted, read every time
    }
  }
  function remember<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
    const hit = epoch !== null ? map.get(key) : undefined;
    if (hit) {
      stats.hits++;
      return hit;
    }
    stats.misses++;
    const p = load();
    if (epoch !== null) {
      map.set(key, p);
      p.catch(() => map.delete(key));
    }
    return p;
  }

  return {
    stats,
    async sessionOpen(jti, userId) {
      await fresh();
      const touched = epoch !== null ? sessions.get(jti) : undefined;
      if (touched !== undefined && touched.userId === userId && now() - touched.at < LAST_SEEN_EVERY_MS) {
        stats.hits++;
        return true;
      }
      stats.misses++;
      // the client's session lifetime and idle timeout (operator settings) end it too
      const open = (await sessionWithinSettings(db, jti)) && (await touchSession(db, jti, userId));
      if (open && epoch !== null) sessions.set(jti, { userId, at: now() });
      return open;
    },
    entries: (userId, clientId) => remember(entries, `${userId}:${clientId ?? ''}`, () => privilegeEntries(db, userId, clientId)),
    clientIds: (userId) => remember(clients, userId, () => clientIdsOf(db, userId)),
    divisionIds: (clientId) => remember(divisions, clientId, () => clientDivisionIds(db, clientId)),
  };
}
