// Gatehouse Edge (issue 47): the controller process beside the doors. `startEdge` opens its data directory (the
// journal and the snapshot held), connects out to the server with the controller's key, decides every swipe with the
// shared engine (edge/doors.ts), journals every event before the door acts and sends the journal up once and in
// order. `demoKey` signs in as the demo administrator and makes (or reuses) a controller key in Northwind.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API, cardReadersResource, controllersResource, edgeAnswer, fill } from '../contract';
import { demoSession } from './demoBoard';
import { createDoors, simulateReaders } from './doors';
import { JOURNAL_CHECK_MS, openJournal, writeWhole } from './journal';
import { watchJournalFill } from './journalAlarm';
import { createLink, type Link } from './link';
import { createDoorIo } from './doorIo';
import { openSnapshotStore } from './snapshot';
import type { Bus } from './osdp';
import { attachOsdp, openLineSpeed } from './readers';
import { attachOsdpIo, boardAddresses, boardName } from './osdpIo';
import { openReaderKeys } from './readerKeys';

export interface EdgeOptions {
  server: string;
  key: string;
  dataDir: string;
  /** simulated readers presenting a card every `everyMs` (none when not given) */
  readers?: { everyMs: number };
  /** an OSDP reader bus (edge/osdp): its readers' cards are swipes at the snapshot's readers of the same bus address,
   *  and the doors' strikes and inputs wired to its boards are driven and read there (edge/osdpIo.ts) */
  osdp?: Bus;
  /** pair OSDP readers that have no key of their own kept (install mode: SCBK-D, then a fresh key by KEYSET) */
  osdpInstall?: boolean;
  log?: (m: string) => void;
  backoff?: { first: number; max: number };
  /** when a silent network is taken for the link gone (EDGE_LIVENESS_MS) */
  liveness?: { handshakeMs: number; pingMs: number; silentMs: number; uploadMs: number };
  /** how long "open briefly" leaves a door unlocked (DOOR_MOMENTARY_MS) */
  momentaryMs?: number;
  /** how often the OSDP readers' colours and status are looked at again (READERS_REFRESH_MS) */
  osdpRefreshMs?: number;
  /** the journal's bound (JOURNAL_LIMIT; tests: a small one to fill) */
  journalLimit?: number;
  /** how long an undelivered event is kept (JOURNAL_MAX_AGE_MS, 30 days; `--journal-days`) */
  journalMaxAgeMs?: number;
  /** how often an edge offline looks for undelivered events past the age bound, idle or not (JOURNAL_CHECK_MS) */
  journalCheckMs?: number;
  /** the edge's clock (tests move it) */
  now?: () => number;
  /** the most journaled events one upload carries (EDGE_RESYNC_BATCH; the bench compares sizes) */
  uploadBatch?: number;
}

export type Edge = ReturnType<typeof startEdge>;

export function startEdge(opts: EdgeOptions) {
  const log = opts.log ?? ((m: string) => console.log(`${new Date().toISOString()} ${m}`));
  mkdirSync(opts.dataDir, { recursive: true });
  const journal = openJournal(opts.dataDir, { limit: opts.journalLimit, maxAgeMs: opts.journalMaxAgeMs, now: opts.now });
  const store = openSnapshotStore(opts.dataDir);
  // the server's commands: a door's to its I/O, a reader's re-pairing and a scan to the OSDP bus (refused without one)
  const link: Link = createLink({
    server: opts.server,
    key: opts.key,
    journal,
    store,
    log,
    backoff: opts.backoff,
    liveness: opts.liveness,
    uploadBatch: opts.uploadBatch,
    onCommand: (m) =>
      m.type === 'door'
        ? io.command(m)
        : osdp
          ? m.type === 'scan'
            ? osdp.scan(m)
            : m.type === 'comset'
              ? osdp.comset(m)
              : osdp.repair(m)
          : edgeAnswer(m.id, false, fill('osdp.noBus', 'this controller runs no OSDP reader bus', {})),
  });
  const doors = createDoors({
    store,
    journal,
    now: journal.now,
    online: () => link.online,
    onEvent: () => link.nudge(),
    onGrant: (doorId) => io.pulse(doorId),
  });
  const io = createDoorIo({
    store,
    journal,
    now: journal.now,
    online: () => link.online,
    momentaryMs: opts.momentaryMs,
    onEvent: () => link.nudge(),
    onChange: (doorId) => {
      osdp?.refresh();
      doorBoards?.strikeMoved(doorId);
    },
  });
  const readers = opts.readers ? simulateReaders(doors, store, { everyMs: opts.readers.everyMs, log, walkThrough: (doorId) => io.walkThrough(doorId) }) : null;
  const osdp = opts.osdp
    ? attachOsdp(opts.osdp, doors, store, {
        keys: openReaderKeys(opts.dataDir, opts.key),
        speed: openLineSpeed(opts.dataDir),
        install: opts.osdpInstall,
        log,
        modeOf: io.modeOf,
        report: (list) => link.readers(list),
        refreshMs: opts.osdpRefreshMs,
        boards: () => boardAddresses(store),
        boardName: (address) => boardName(store, address),
        record: (e) => {
          journal.append({ ...e, at: journal.now(), offline: !link.online, snapshotVersion: store.held?.version ?? 0 });
          link.nudge();
        },
      })
    : null;
  // the doors' strikes and inputs wired to boards of the bus: driven and read there (edge/osdpIo.ts)
  const doorBoards = opts.osdp ? attachOsdpIo(opts.osdp, io, store, { log }) : null;
  doorBoards?.snapshotChanged();
  // 80 % of the journal's bound undelivered: an alarm (edge/journalAlarm.ts)
  const journalFill = watchJournalFill({ journal, store, online: () => link.online, controllerId: () => link.controllerId, onEvent: () => link.nudge() });
  // a lockdown or threat level that came with the snapshot locks a strike a command left unlocked
  // the first card after a start or a new snapshot is decided as fast as the rest (edge/doors.ts warm)
  doors.warm();
  link.on((e) => {
    if (e === 'snapshot') {
      io.enforce();
      doors.warm();
    }
    if (e === 'online') expire(); // before the upload: what is past the age bound goes up as one Events lost
  });
  // undelivered events past the journal's age bound are dropped while offline (issue 47), counted in one Events lost
  function expire() {
    const id = link.controllerId ?? store.held?.snapshot.controllerId ?? 0;
    const gap = journal.expire({ id, name: store.held?.snapshot.controllerName ?? `controller ${id}` });
    if (gap) log(gap.message);
  }
  journal.watch(() => {
    if (!link.online) expire();
  });
  // an edge offline and idle journals nothing: its old events pass the bound all the same (a look is one comparison)
  const ageTimer = setInterval(() => {
    if (!link.online) expire();
  }, opts.journalCheckMs ?? JOURNAL_CHECK_MS);
  ageTimer.unref?.();
  if (osdp)
    link.on((e) => {
      if (e === 'snapshot') {
        osdp.snapshotChanged();
        doorBoards?.snapshotChanged();
      } else osdp.refresh(); // online or offline: the readers' colour follows (amber while offline)
      if (e === 'online') osdp.report();
    });
  if (store.held) log(`snapshot version ${store.held.version} held from before (fresh at ${new Date(store.held.freshAt).toISOString()})`);
  if (journal.pendingCount()) log(`${journal.pendingCount()} journaled event(s) not yet delivered`);
  return {
    journal,
    store,
    link,
    doors,
    io,
    osdp,
    swipe: doors.swipe,
    fill: journalFill,
    stop() {
      clearInterval(ageTimer);
      journalFill.stop();
      readers?.stop();
      io.stop();
      osdp?.stop();
      void opts.osdp?.stop();
      link.stop();
      journal.close();
    },
  };
}

/**
 * The demo's controller key: the one kept in the data directory while the server still takes it, else a new one made
 * as the demo administrator in `clientName`'s first controller with card readers.
 */
export async function demoKey(
  server: string,
  dataDir: string,
  who = { username: 'admin', password: 'Gatehouse1!' },
  clientName = 'Northwind',
): Promise<string> {
  const http = server.replace(/\/+$/, '');
  const kept = join(dataDir, 'demo-key');
  if (existsSync(kept)) {
    const key = readFileSync(kept, 'utf8').trim();
    const probe = await fetch(http + API.deviceControllers, { headers: { authorization: `Bearer ${key}` } });
    if (probe.status === 200) return key;
  }
  const { headers, client } = await demoSession(http, who, clientName);
  const list = (await (await fetch(`${http}${controllersResource.api}?size=100`, { headers })).json()) as { items: { id: number; name: string }[] };
  const readers = (await (await fetch(`${http}${cardReadersResource.api}?size=500`, { headers })).json()) as { items: { controllerId: number }[] };
  const wired = new Set(readers.items.map((r) => r.controllerId));
  const controller = list.items.find((c) => wired.has(c.id)) ?? list.items[0];
  if (!controller) throw new Error(`${client.name} has no controller`);
  const made = await fetch(`${http}${controllersResource.api}/${controller.id}/edge-key`, { method: 'POST', headers, body: '{}' });
  if (made.status !== 200) throw new Error(`edge key of ${controller.name}: ${made.status} ${(await made.text()).slice(0, 200)}`);
  const { apiKey } = (await made.json()) as { apiKey: string };
  mkdirSync(dataDir, { recursive: true });
  writeWhole(kept, apiKey);
  console.log(`Controller key made for ${controller.name} in ${client.name} (kept in ${kept})`);
  return apiKey;
}
