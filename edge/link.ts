// The edge's link to the server (issue 47): one WebSocket OUT to the server's port (EDGE_CONNECT_PATH, the controller
// key as `Authorization: Bearer`), so it works behind a site's NAT and firewall. It takes the welcome and every
// snapshot (checked by the store: refused ones are said in the log and answered nothing), says hello and its status,
// and reconnects with back-off when the link goes. Journaled events go up through the device interface
// (API.deviceEvents), oldest first, a batch at a time, each with its sequence number: the server stores each once.
import type { Struct } from 'superstruct';
import WebSocket from 'ws';
import {
  API,
  EDGE_BACKOFF_MS,
  EDGE_CONNECT_PATH,
  EDGE_LIVENESS_MS,
  EDGE_UPLOAD_BATCH,
  EdgeDoorCommand,
  EdgeError,
  EdgeRepairCommand,
  EdgeScanCommand,
  EdgeComsetCommand,
  EdgeWelcome,
  edgeAnswer,
  fill,
  validate,
  type DeviceBatchResult,
  type DeviceEvent,
  type EdgeCommandResult,
  type EdgeReaderStatus,
} from '../contract';
import type { Journal, JournalEntry } from './journal';
import { DEFAULT_ALARM_CODES, createOfflineClears } from './offlineClears';
import type { SnapshotStore } from './snapshot';

export const EDGE_VERSION = '0.1.0';
/**
 * Batches of the journal sent before the first is answered (the server stores them in order, each once): enough that
 * the server's resync lane always holds a full transaction's worth (RESYNC_TRANSACTION_MAX) while it answers the one
 * before (with 2 its transactions were mostly of one batch, and its writer waited for the next; issue 47).
 */
const UPLOADS_IN_FLIGHT = 4;
/**
 * The live lane (issue 47): while an upload round has more than a batch of the journal to go, an event journaled
 * online is sent at once beside it (at most this many a send, the newest), marked `live`: the server stores it ahead of
 * the backlog, so the consoles see a swipe at this edge's doors as it happens, not after the outage's events. The round
 * sends it again in its turn (a duplicate then, stored nothing of).
 */
const LIVE_AHEAD_MAX = 20;

export interface LinkOptions {
  server: string;
  key: string;
  journal: Journal;
  store: SnapshotStore;
  log?: (m: string) => void;
  /** how often the edge says its status while connected */
  statusMs?: number;
  backoff?: { first: number; max: number };
  /** when a silent network is taken for a link gone (EDGE_LIVENESS_MS; tests: shorter) */
  liveness?: { handshakeMs: number; pingMs: number; silentMs: number; uploadMs: number };
  /** the most journaled events one upload carries (EDGE_UPLOAD_BATCH unless said) */
  uploadBatch?: number;
  /** a command of the server (a door's, a reader's re-pairing): applied here, answered with its result */
  onCommand?: (m: EdgeServerCommand) => EdgeCommandResult | Promise<EdgeCommandResult>;
}

export type Link = ReturnType<typeof createLink>;

/** The server's commands an edge applies and answers (a door's, and its OSDP bus's: re-pair, scan, COMSET). */
export type EdgeServerCommand = EdgeDoorCommand | EdgeRepairCommand | EdgeScanCommand | EdgeComsetCommand;
const COMMANDS = { door: EdgeDoorCommand, repair: EdgeRepairCommand, scan: EdgeScanCommand, comset: EdgeComsetCommand } as const;

export function createLink(opts: LinkOptions) {
  const { journal, store } = opts;
  const uploadBatch = opts.uploadBatch ?? EDGE_UPLOAD_BATCH;
  const log = opts.log ?? (() => {});
  const backoff = opts.backoff ?? EDGE_BACKOFF_MS;
  const liveness = opts.liveness ?? EDGE_LIVENESS_MS;
  let heard = 0; // when the server was last heard from (a message, a pong)
  let alive: ReturnType<typeof setInterval> | null = null;
  const http = opts.server.replace(/\/+$/, '');
  const wsUrl = http.replace(/^http/, 'ws') + EDGE_CONNECT_PATH;
  let ws: WebSocket | null = null;
  let controllerId: number | null = null;
  let welcomed = false;
  let stopped = false;
  let wait: number = backoff.first;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let statusTimer: ReturnType<typeof setInterval> | null = null;
  let uploading = false;
  let uploadAgain = false;
  let liveSent = 0; // the last number the live lane looked at
  const offlineClears = createOfflineClears();
  let offlineRead = 0; // the journal's events read by offlineClears, up to this number
  let alarmCodesOf: { list: readonly number[] | undefined; set: ReadonlySet<number> } = { list: undefined, set: new Set(DEFAULT_ALARM_CODES) };
  const refusals: { field: string; message: string; at: number }[] = [];
  const listeners = new Set<(e: 'online' | 'offline' | 'snapshot') => void>();
  const tell = (e: 'online' | 'offline' | 'snapshot') => {
    for (const l of listeners) l(e);
  };

  const send = (m: unknown) => {
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
  };
  const status = () => send({ type: 'status', snapshotVersion: store.held?.version ?? 0, pending: journal.pendingCount(), lastSeq: journal.lastSeq });
  /** The version now held, when the server built it and when it was applied here (the Controllers list's snapshot age). */
  const applied = () => {
    const h = store.held;
    if (h) send({ type: 'applied', version: h.version, builtAt: h.builtAt, at: Date.now() });
  };
  const refuse = (field: string, message: string) => {
    // a live event refused ahead of the backlog is refused again when the backlog's copy comes: said once
    if (refusals.some((r) => r.field === field && r.message === message)) return;
    refusals.push({ field, message, at: Date.now() });
    if (refusals.length > 100) refusals.shift();
    log(`refused from the server: ${field} ${message}`);
  };

  function connect() {
    if (stopped) return;
    const socket = new WebSocket(wsUrl, {
      headers: { authorization: `Bearer ${opts.key}`, 'user-agent': `Gatehouse Edge ${EDGE_VERSION}` },
      handshakeTimeout: liveness.handshakeMs,
    });
    ws = socket;
    heard = Date.now();
    // silence is a link gone: not welcomed in time, or nothing heard (a pong, a message) for silentMs; pinged meanwhile
    alive = setInterval(
      () => {
        if (ws !== socket) return;
        const quiet = Date.now() - heard;
        if ((!welcomed && quiet > liveness.handshakeMs) || (welcomed && quiet > liveness.silentMs)) {
          log(`link: nothing from the server for ${Math.round(quiet / 1000)} s: taken as gone`);
          socket.terminate();
        } else if (socket.readyState === WebSocket.OPEN) socket.ping();
      },
      Math.min(liveness.pingMs, liveness.handshakeMs),
    );
    alive.unref?.();
    socket.on('open', () => {
      send({ type: 'hello', edgeVersion: EDGE_VERSION, snapshotVersion: store.held?.version ?? 0, pending: journal.pendingCount() });
    });
    socket.on('pong', () => (heard = Date.now()));
    socket.on('message', (data) => {
      heard = Date.now();
      received(data.toString());
    });
    socket.on('unexpected-response', (_req, res) => {
      log(
        `the server refused the connection: ${res.statusCode} ${res.statusMessage ?? ''}${res.statusCode === 401 ? ' (the controller key is not valid, revoked or its controller deleted)' : ''}`,
      );
      socket.terminate();
    });
    socket.on('error', (e) => {
      if (welcomed || wait === backoff.first) log(`link: ${e.message}`);
    });
    socket.on('close', () => {
      if (ws !== socket) return;
      ws = null;
      if (alive) clearInterval(alive);
      alive = null;
      const was = welcomed;
      welcomed = false;
      if (statusTimer) clearInterval(statusTimer);
      statusTimer = null;
      if (was) {
        store.fresh();
        log('offline: deciding from the snapshot held');
        tell('offline');
      }
      if (stopped) return;
      retry = setTimeout(connect, wait);
      wait = Math.min(backoff.max, wait * 2);
    });
  }

  function received(text: string) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      refuse('(body)', 'is not JSON');
      return;
    }
    const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
    if (type === 'welcome') {
      const r = validate(raw, EdgeWelcome);
      if (!r.ok) return refuse(`welcome: ${r.violations[0]?.field}`, r.violations[0]?.message ?? '');
      controllerId = r.value.controllerId;
      journal.startAfter(r.value.lastSeq);
      if (r.value.lastSeq > journal.lastDelivered && r.value.lastSeq <= journal.lastSeq) journal.delivered(r.value.lastSeq);
      // the server has fewer of its events than it acknowledged: its database was restored from a backup. What it lost
      // is sent again (the journal keeps delivered events on disk up to its bound), in order; a server that came back
      // without them would otherwise refuse every event after them as a gap, for ever
      const back = journal.rewind(r.value.lastSeq, { id: r.value.controllerId, name: r.value.controllerName });
      if (back)
        log(
          `the server has events up to ${r.value.lastSeq}, fewer than it acknowledged (a restored database): ${back.again} sent again${back.lost ? `, ${back.lost} no longer held (sent as one Edge events lost)` : ''}`,
        );
      welcomed = true;
      wait = backoff.first;
      log(`online: controller ${r.value.controllerName} (#${controllerId}), the server has its events up to ${r.value.lastSeq}`);
      statusTimer = setInterval(status, opts.statusMs ?? 10_000);
      statusTimer.unref?.();
      tell('online');
      void upload();
      return;
    }
    if (type === 'snapshot') {
      if (controllerId === null) return refuse('snapshot', 'came before the welcome');
      const r = store.accept(raw, controllerId);
      if (!r.ok) return refuse(r.field, r.message);
      if (!r.same) {
        log(`snapshot version ${r.version}: ${store.held!.snapshot.doors.length} door(s), ${store.held!.snapshot.credentials.length} card(s)`);
        tell('snapshot');
      }
      applied();
      return;
    }
    if (type === 'delta') {
      if (controllerId === null) return refuse('delta', 'came before the welcome');
      const r = store.acceptDelta(raw, controllerId);
      if (!r.ok) {
        refuse(r.field, r.message);
        send({ type: 'resync', held: store.held?.version ?? 0 });
        return;
      }
      log(`snapshot version ${r.version} (a delta: ${r.parts})`);
      tell('snapshot');
      applied();
      return;
    }
    if (type === 'door' || type === 'repair' || type === 'scan' || type === 'comset') {
      if (controllerId === null) return refuse(String(type), 'came before the welcome');
      const r = validate(raw, COMMANDS[type] as Struct<EdgeServerCommand>);
      if (!r.ok) return refuse(`${type}: ${r.violations[0]?.field}`, r.violations[0]?.message ?? '');
      const m = r.value as EdgeServerCommand;
      if (!opts.onCommand) {
        send(edgeAnswer(m.id, false, fill('edge.takesNoCommands', 'this controller takes no commands', {})));
        return;
      }
      void Promise.resolve()
        .then(() => opts.onCommand!(m))
        .catch((e: Error): EdgeCommandResult => edgeAnswer(m.id, false, fill('edge.commandFailed', 'failed: {reason}', { reason: e.message.slice(0, 400) })))
        .then((result) => {
          if (!result.ok) log(`command ${m.type} refused: ${result.message}`);
          send(result);
          void upload();
        });
      return;
    }
    if (type === 'error') {
      const r = validate(raw, EdgeError);
      const more =
        r.ok && (r.value.violations?.length ?? 0) > 1
          ? ` (and ${r.value.violations!.length - 1} more: ${r.value
              .violations!.slice(1)
              .map((v) => v.field)
              .join(', ')})`
          : '';
      log(r.ok ? `the server says: ${r.value.field} ${r.value.message}${more}` : 'the server sent an error');
      return;
    }
    refuse('type', `${String(type)} is not a message of the edge protocol`);
  }

  /**
   * Sends the journal's undelivered events, oldest first, until none are left or the link goes: UPLOADS_IN_FLIGHT
   * batches at a time (the next one sent while the server stores the one before; it stores them in their numbers'
   * order, each once). A batch that fails pauses the round: once those in flight are answered, it starts again from
   * what the server has.
   */
  async function upload(): Promise<void> {
    if (uploading) {
      uploadAgain = true;
      return;
    }
    uploading = true;
    try {
      do {
        uploadAgain = false;
        let sent = journal.lastDelivered; // the last number sent in this round
        let pause = 0;
        const flight = new Set<Promise<void>>();
        while (welcomed && controllerId !== null) {
          const batch = pause || flight.size >= UPLOADS_IN_FLIGHT ? [] : journal.pending(uploadBatch, Math.max(sent, journal.lastDelivered));
          if (batch.length) {
            sent = batch.at(-1)!.seq;
            const p: Promise<void> = sendBatch(batch, controllerId).then((ms) => {
              flight.delete(p);
              pause = Math.max(pause, ms);
            });
            flight.add(p);
            continue;
          }
          if (flight.size) {
            await Promise.race(flight);
            continue;
          }
          if (!pause) break;
          await sleep(pause);
          pause = 0;
          sent = journal.lastDelivered;
        }
        await Promise.all(flight);
      } while (uploadAgain);
    } finally {
      uploading = false;
    }
  }

  /** One batch up the device interface: 0 once the server answered it, else how long to wait before sending again. */
  async function sendBatch(batch: JournalEntry[], controller: number, live = false): Promise<number> {
    // the alarms of this batch raised offline and back to normal offline (the whole journal read, on from where it was;
    // the live lane's events were journaled online: none of them)
    const codes = store.held?.snapshot.alarmCodes;
    if (codes !== alarmCodesOf.list) alarmCodesOf = { list: codes, set: new Set(codes ?? DEFAULT_ALARM_CODES) };
    const cleared = live
      ? new Map<number, number>()
      : offlineClears.read(journal.pending(Infinity, offlineRead), alarmCodesOf.set, batch, journal.lastDelivered + 1);
    if (!live) offlineRead = Math.max(offlineRead, journal.lastSeq);
    // a point that is its source (a swipe's reader) is not said twice: the server takes the source for it
    const events: DeviceEvent[] = batch.map((e) => {
      const edge: NonNullable<DeviceEvent['edge']> = { seq: e.seq, occurredAt: e.at, offline: e.offline, snapshotVersion: e.snapshotVersion };
      const clearedAt = cleared.get(e.seq);
      if (clearedAt !== undefined) edge.clearedAt = clearedAt;
      if (e.decided) edge.decided = e.decided;
      if (live) edge.live = true;
      const out: DeviceEvent = { controllerId: controller, eventCode: e.eventCode as DeviceEvent['eventCode'], sourceId: e.sourceId, sourceName: e.sourceName };
      if (e.pointId && e.pointId !== e.sourceId) out.pointId = e.pointId;
      if (e.pointName !== undefined && e.pointName !== e.sourceName) out.pointName = e.pointName;
      out.message = e.message;
      if (e.messageCode) {
        out.messageCode = e.messageCode;
        out.messageValues = e.messageValues ?? {};
      }
      out.edge = edge;
      return out;
    });
    let res: Response;
    try {
      res = await fetch(http + API.deviceEvents, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
        signal: AbortSignal.timeout(liveness.uploadMs), // a silent network: sent again, never waited for for ever
      });
    } catch (e) {
      log(`upload: ${(e as Error).message}`);
      return wait;
    }
    if (res.status === 503) return 1000 * (Number(res.headers.get('retry-after')) || 1);
    if (res.status !== 200) {
      log(`upload refused: ${res.status} ${(await res.text()).slice(0, 300)}`);
      return Math.max(wait, 2000);
    }
    let r: DeviceBatchResult;
    try {
      r = (await res.json()) as DeviceBatchResult;
    } catch (e) {
      log(`upload: ${(e as Error).message}`); // the answer cut off: the batch goes again (a resend stores nothing twice)
      return wait;
    }
    const last = r.edgeLastSeq ?? 0;
    for (const x of r.rejected) {
      const v = x.violations[0];
      if (v && v.field !== 'edge.seq') refuse(`event ${batch[x.index]?.seq}: ${v.field}`, v.message);
    }
    // a number the server refused for what its event says is used all the same (it was told why): it says so
    journal.delivered(last);
    return last < batch[0].seq ? Math.max(wait, 1000) : 0;
  }

  connect();
  return {
    get online() {
      return welcomed;
    },
    get controllerId() {
      return controllerId;
    },
    refusals: () => [...refusals],
    /** The OSDP readers' status, to the server (sent when online). */
    readers(list: EdgeReaderStatus[]) {
      if (welcomed) send({ type: 'readers', readers: list });
    },
    /** New events were journaled: send them when online (beside a long round, at once: the live lane). */
    nudge() {
      if (!welcomed) return;
      if (uploading && controllerId !== null && journal.lastSeq - journal.lastDelivered > uploadBatch) {
        const batch = journal.pending(LIVE_AHEAD_MAX, Math.max(liveSent, journal.lastDelivered, journal.lastSeq - LIVE_AHEAD_MAX)).filter((e) => !e.offline);
        liveSent = journal.lastSeq;
        if (batch.length) void sendBatch(batch, controllerId, true);
      }
      void upload();
    },
    on(l: (e: 'online' | 'offline' | 'snapshot') => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    /** Tests: the raw socket (to send it bad frames). */
    socket: () => ws,
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      if (statusTimer) clearInterval(statusTimer);
      if (alive) clearInterval(alive);
      ws?.terminate();
      ws = null;
      welcomed = false;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
