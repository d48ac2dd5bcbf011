// Issue 48: the reads a signed-in console's opening screen waits for, asked by the entry (src/main.tsx) as soon as it
// runs, while the console's code is still on its way: the session's check (/me), then, for the dashboard, its figures
// and the shift handover when the session may read them. Without them a cold dashboard asked /me only once the
// console's modules were evaluated and the system started, and its figures only once the shell and the screen had
// rendered: three round trips one after another after the code. The axios client (./client.ts) answers a GET from here
// when one was asked early with exactly its token and no other header of its own, once, within EARLY_MS; anything
// else (a refusal, a failure, another token, a tenant header, too late) is asked again as usual, so an early read
// changes nothing the console sees but when. The entry loads this file: it imports nothing of the console (no contract
// barrel, no axios; contract/access.ts imports types only), and the paths and privilege codes it names are held to the contract's by src/api/early.test.ts.

import { heldPrivilegeIds } from '../../contract/access';
import type { PrivilegeEntry } from '../../contract/schemas';

/** An early answer, kept as it came (axios parses it as it would have parsed its own). */
export interface EarlyAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
}

/** How long an early answer may wait for the console to ask for it. */
export const EARLY_MS = 10_000;

/** The paths read early (contract/api.ts API.me, API.dashboard; contract/handover.ts HANDOVER_API + '/latest'). */
export const EARLY_PATHS = { me: '/idp/1.0/me', dashboard: '/event/manage/dashboard', handover: '/event/handover/latest' } as const;
/** The privileges those reads need (contract/privileges.ts PRIV.dashboard, PRIV.handover.view). */
export const EARLY_PRIVILEGES = { dashboard: '0.1', handoverView: '0.2.6.0' } as const;
/** The routes that open on the dashboard (src/app/routeTable.ts: '/' leads to DASHBOARD). */
const DASHBOARD_PATHS = ['/', '/dashboard'];
/** Whether a console opened at `path` opens on the dashboard. */
export const opensOnDashboard = (path: string): boolean => DASHBOARD_PATHS.includes(path);

interface Early {
  at: number;
  answer: Promise<EarlyAnswer | null>;
}
const early = new Map<string, Early>();
const keyOf = (path: string, authorization: string) => `${authorization} ${path}`;

/** GET `path` now with `token`; its answer waits for the console's own request (takeEarly). */
export function readEarly(path: string, token: string, now: () => number = Date.now): Promise<EarlyAnswer | null> {
  const authorization = `Bearer ${token}`;
  const answer = fetch(path, { headers: { Accept: 'application/json, text/plain, */*', Authorization: authorization }, credentials: 'same-origin' })
    .then(async (r): Promise<EarlyAnswer | null> => {
      if (!r.ok) return null; // a refusal is asked again by the console itself, which knows what to make of it
      const headers: Record<string, string> = {};
      r.headers.forEach((v, k) => (headers[k] = v));
      return { status: r.status, statusText: r.statusText, headers, body: await r.text() };
    })
    .catch(() => null);
  early.set(keyOf(path, authorization), { at: now(), answer });
  return answer;
}

/**
 * The early answer of a GET of `path` sent with `authorization` and no other header of the console's own (a tenant
 * header: IAM mode), taken once; null when there is none or it is older than EARLY_MS.
 */
export function takeEarly(path: string, authorization: string | undefined, now: () => number = Date.now): Promise<EarlyAnswer | null> | null {
  if (!authorization || early.size === 0) return null;
  const key = keyOf(path, authorization);
  const found = early.get(key);
  if (!found) return null;
  early.delete(key);
  return now() - found.at <= EARLY_MS ? found.answer : null;
}

/** Forget every early read (a sign-out, a test). */
export function forgetEarly(): void {
  early.clear();
}

/**
 * What a signed-in console opening on `path` reads first, asked now with the stored `token`: /me, and once it answered
 * (the privileges are in it) and `codeIn` settled (the console's code is in: src/main.tsx says why), the dashboard's
 * figures and the shift handover the session may read.
 */
export function startEarlyReads(path: string, token: string, codeIn: Promise<unknown> = Promise.resolve()): void {
  const me = readEarly(EARLY_PATHS.me, token);
  if (!opensOnDashboard(path)) return;
  void Promise.all([me, codeIn.catch(() => undefined)]).then(([answer]) => {
    const held = answer ? heldOf(answer.body) : null;
    if (!held) return;
    if (held.has(EARLY_PRIVILEGES.dashboard)) void readEarly(EARLY_PATHS.dashboard, token);
    if (held.has(EARLY_PRIVILEGES.handoverView)) void readEarly(EARLY_PATHS.handover, token);
  });
}

/** The privilege ids of a /me answer (its `privileges.priviledges`), or null when it does not read as one. */
function heldOf(body: string): Set<string> | null {
  try {
    const entries = (JSON.parse(body) as { privileges?: { priviledges?: unknown } }).privileges?.priviledges;
    if (!Array.isArray(entries) || !entries.every((e: { privilegeIds?: unknown }) => Array.isArray(e?.privilegeIds))) return null;
    return heldPrivilegeIds(entries as PrivilegeEntry[]);
  } catch {
    return null;
  }
}
