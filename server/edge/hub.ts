// The server's side of Gatehouse Edge's connection (issue 47): each edge controller opens one WebSocket OUT to the
// server's one port (EDGE_CONNECT_PATH) with its controller key. The server answers with a welcome (which controller,
// the last sequence number of its events stored) and its snapshot, then a new snapshot version within a second of any
// change its doors depend on (the access index is rebuilt on every change notice: onBuilt). Every message from the
// edge is checked with its contract/edge.ts schema; a bad one is answered with an error naming the field, nothing
// changes and the connection stays. A key revoked, rotated or ended, or a controller deleted, is dropped at once
// after its change and in any case within EDGE_RECHECK_MS.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Struct } from 'superstruct';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  EDGE_CLIENT_MESSAGES,
  EDGE_ERROR_VIOLATIONS_MAX,
  API_KEY_HEADER,
  EDGE_CONNECT_PATH,
  EDGE_OFFLINE_GRACE_MS,
  EVENT_CODES,
  eventLabel,
  fill,
  EDGE_RECHECK_MS,
  EDGE_COMMAND_TIMEOUT_MS,
  EDGE_KEYED_PARTS,
  diffPart,
  EdgeCommandResult,
  validate,
  type EdgeClientMessage,
  type EdgeDoorCommand,
  type EdgeRepairCommand,
  type EdgeScanCommand,
  type EdgeComsetCommand,
  type EdgeDeltaMessage,
  type EdgeKeyedPart,
  type EdgePatch,
  type EdgeSnapshot,
  type EdgeSnapshotMessage,
} from '../../contract';
import { authenticateApiKey, isApiKey } from '../auth/apiKeys';
import type { AccessIndexes } from '../access/index';
import type { Db } from '../db/db';
import { controllerOfKeyUser, noteEdgeConnected, noteEdgeDisconnected, noteEdgePending, noteOsdpReaders, setControllerStatus } from '../db/queries/edgeLink';
import { HardwareError } from '../doors/port';
import type { Pipeline } from '../monitor/pipeline';
import { said } from '../monitor/events';
import { hardAntiPassbackDoors, raiseSnapshotVersion, recordApplied, snapshotVersionFor } from '../db/queries/edge';
import { snapshotCutter, type SnapshotCutter } from './snapshot';
import { claimUpgrades } from '../http/upgrades';

interface Conn {
  ws: WebSocket;
  key: string;
  controllerId: number;
  clientId: number;
  name: string;
  /** the version, hash and snapshot last sent, and when the server built that version (a change goes as a delta from it) */
  sent: { version: number; hash: string; snapshot: EdgeSnapshot; builtAt: number } | null;
  /** snapshot sends of this connection, one after another */
  chain: Promise<void>;
  /** its snapshots, each cut again only where the index changed since the last one */
  cutter: SnapshotCutter;
}

/** The controller a key is bound to (migration 132), with its client; null: not a controller's key, or not valid. */
async function controllerOfKey(db: Db, key: string, from: { ip: string; userAgent: string }) {
  const k = await authenticateApiKey(db, null, key, from);
  if (!k) return null;
  return controllerOfKeyUser(db, k.clientId, k.userId);
}

export type EdgeHub = ReturnType<typeof createEdgeHub>;

export function createEdgeHub(opts: {
  db: Db;
  access: AccessIndexes;
  /** where the controller's online and offline events go (an offline edge controller is an alarm: interface offline) */
  pipeline?: Pipeline;
  log?: (m: string) => void;
  /** the controller's OSDP readers' status changed: its edge reported them, or its link came or went (issue 46) */
  readersChanged?: (clientId: number, controllerId: number) => void;
  recheckMs?: number;
  offlineGraceMs?: number;
}) {
  const { db, access } = opts;
  const graceMs = opts.offlineGraceMs ?? EDGE_OFFLINE_GRACE_MS;
  /** controller id → the timer that raises its offline alarm unless it comes back first */
  const goingOffline = new Map<number, ReturnType<typeof setTimeout>>();

  /** The controller's status changed: its event (1012 online, 1013 offline: an alert), once per change. */
  async function linkEvent(clientId: number, controllerId: number, online: boolean) {
    const status = online ? 'online' : 'offline';
    const name = await setControllerStatus(db, clientId, controllerId, status);
    if (name === undefined || !opts.pipeline) return;
    const code = online ? EVENT_CODES.interfaceOnline : EVENT_CODES.interfaceOffline;
    // offline, its doors' hard anti-passback goes soft (a repeat is let through and logged): the alarm says which
    const soft = online ? [] : await hardAntiPassbackDoors(db, clientId, controllerId);
    // issue 48: said with its key and values, in the operator's language on the console
    const values = { event: eventLabel(code), controller: name };
    const doors = soft.slice(0, 3).join(', ');
    const message = online
      ? fill('event.edgeConnected', '{event}: {controller} (Gatehouse Edge connected)', values)
      : !soft.length
        ? fill('event.edgeLinkLost', '{event}: {controller} (Gatehouse Edge link lost)', values)
        : soft.length <= 3
          ? fill('event.edgeLinkLostSoftApb', '{event}: {controller} (Gatehouse Edge link lost): anti-passback is soft at {doors} until it reconnects', {
              ...values,
              doors,
            })
          : fill(
              'event.edgeLinkLostSoftApbMore',
              '{event}: {controller} (Gatehouse Edge link lost): anti-passback is soft at {doors} and {more} more door(s) until it reconnects',
              { ...values, doors, more: soft.length - 3 },
            );
    await opts.pipeline.record(clientId, {
      eventCode: code,
      sourceId: `iface-${controllerId}`,
      sourceName: name,
      ...said({ ...message, message: message.message.slice(0, 500) }),
      controllerId,
    });
  }
  const live = (controllerId: number) => [...conns].some((c) => c.controllerId === controllerId);
  const log = opts.log ?? (() => {});
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const conns = new Set<Conn>();
  /** command id → its answer's waiter (door commands, re-pairing: sent to the edge, answered by it) */
  const answers = new Map<string, { controllerId: number; resolve: (r: EdgeCommandResult) => void }>();
  let commandIds = 0;

  /**
   * A command to the controller's edge, answered by it (`result`): refused with a HardwareError 409 when the edge is
   * not connected or does not answer within EDGE_COMMAND_TIMEOUT_MS (it may still apply it: the event will say).
   */
  function command(
    controllerId: number,
    m: Omit<EdgeDoorCommand, 'id'> | Omit<EdgeRepairCommand, 'id'> | Omit<EdgeScanCommand, 'id'> | Omit<EdgeComsetCommand, 'id'>,
    name: string,
    timeoutMs = EDGE_COMMAND_TIMEOUT_MS,
  ): Promise<EdgeCommandResult> {
    // the newest open connection: an edge that reconnected is on it, while the older one may not have been seen to close
    const c = [...conns].reverse().find((x) => x.controllerId === controllerId && x.ws.readyState === x.ws.OPEN);
    if (!c)
      return Promise.reject(
        new HardwareError(
          409,
          fill('edge.commandOffline', '{name} is on Gatehouse Edge controller #{id}, which is offline: the command cannot reach it', {
            name,
            id: controllerId,
          }),
        ),
      );
    const id = `${Date.now().toString(36)}-${++commandIds}`;
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        answers.delete(id);
        reject(new HardwareError(409, fill('edge.commandTimeout', '{name}: its Gatehouse Edge controller did not answer the command in time', { name })));
      }, timeoutMs);
      answers.set(id, {
        controllerId,
        resolve: (r) => {
          clearTimeout(t);
          answers.delete(id);
          resolve(r);
        },
      });
      send(c, { ...m, id });
    });
  }

  const send = (c: Conn, m: unknown) => {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(m));
  };

  /** Build the controller's snapshot; a new version (stored, only ever growing) when its hash changed, sent. */
  function resend(c: Conn): Promise<void> {
    c.chain = c.chain
      .then(async () => {
        if (!conns.has(c)) return;
        const index = await access.get(c.clientId);
        const { snapshot, hash } = await c.cutter.build(index, c.name);
        if (c.sent?.hash === hash) return;
        // the version of this hash, and when it was built (the same hash on a reconnect: the same version and time)
        const v = await snapshotVersionFor(db, c.clientId, c.controllerId, hash);
        if (!v?.version) return;
        const { version, builtAt } = v;
        const before = c.sent;
        c.sent = { version, hash, snapshot, builtAt };
        if (before && before.version < version) {
          // the parts that changed, as a delta from the version the edge was sent last
          // (a keyed part by its elements when few of them changed: contract/edgeDelta.ts)
          const set: Partial<EdgeSnapshot> = {};
          const patch: EdgePatch = {};
          for (const k of Object.keys(snapshot) as (keyof EdgeSnapshot)[]) {
            // a keyed part is compared element by element once (each element stringified once, not the whole
            // part and then its elements again); a part most of which changed, or any other, is compared whole
            const keyed = (EDGE_KEYED_PARTS as readonly string[]).includes(k) && Array.isArray(before.snapshot[k]);
            const p = keyed ? diffPart(before.snapshot[k] as unknown[], snapshot[k] as unknown[]) : null;
            if (p) {
              if (p.upsert.length || p.remove.length) patch[k as EdgeKeyedPart] = p;
              continue;
            }
            if (JSON.stringify(snapshot[k]) === JSON.stringify(before.snapshot[k])) continue;
            (set as Record<string, unknown>)[k] = snapshot[k];
          }
          const d: EdgeDeltaMessage = { type: 'delta', from: before.version, version, hash, builtAt, set, ...(Object.keys(patch).length ? { patch } : {}) };
          send(c, d);
          return;
        }
        const m: EdgeSnapshotMessage = { type: 'snapshot', version, hash, builtAt, snapshot };
        send(c, m);
      })
      .catch((e) => log(`edge controller ${c.controllerId}: snapshot not sent: ${e}`));
    return c.chain;
  }

  /** Is the connection's key still its controller's (not revoked, rotated, ended; the controller not deleted)? */
  async function recheck(c: Conn) {
    const now = await controllerOfKey(db, c.key, { ip: '', userAgent: 'Gatehouse Edge' }).catch(() => undefined);
    if (now === undefined || !conns.has(c)) return; // the database did not answer: ask again next time
    if (!now || now.controllerId !== c.controllerId) {
      refuseMessage(c, 'key', 'This controller key is revoked, replaced or its controller deleted');
      c.ws.close(4401, 'key refused');
      conns.delete(c);
      return;
    }
    if (now.name !== c.name) {
      c.name = now.name;
      await resend(c);
    }
  }

  async function opened(ws: WebSocket, key: string, who: { controllerId: number; name: string; clientId: number }) {
    const c: Conn = {
      ws,
      key,
      ...who,
      sent: null,
      chain: Promise.resolve(),
      cutter: snapshotCutter(db, access, { id: who.controllerId, clientId: who.clientId }),
    };
    conns.add(c);
    ws.on('message', (data, isBinary) => void received(c, data.toString(), isBinary));
    ws.on('close', () => {
      conns.delete(c);
      if (!live(c.controllerId)) opts.readersChanged?.(c.clientId, c.controllerId);
      if (!live(c.controllerId) && !goingOffline.has(c.controllerId)) {
        const t = setTimeout(() => {
          goingOffline.delete(c.controllerId);
          if (!live(c.controllerId)) void linkEvent(c.clientId, c.controllerId, false).catch((e) => log(`edge controller ${c.controllerId}: ${e}`));
        }, graceMs);
        t.unref();
        goingOffline.set(c.controllerId, t);
      }
      void noteEdgeDisconnected(db, c.controllerId).catch((e) => log(`edge controller ${c.controllerId}: ${e}`));
    });
    ws.on('error', (e) => log(`edge controller ${c.controllerId}: ${e.message}`));
    const lastSeq = await noteEdgeConnected(db, c.clientId, c.controllerId);
    const pending = goingOffline.get(c.controllerId);
    if (pending) clearTimeout(pending);
    goingOffline.delete(c.controllerId);
    await linkEvent(c.clientId, c.controllerId, true);
    opts.readersChanged?.(c.clientId, c.controllerId);
    send(c, { type: 'welcome', controllerId: c.controllerId, controllerName: c.name, lastSeq, serverTime: Date.now() });
    await resend(c);
  }

  /** A message refused: its first violation's field and message, and every violation (at most EDGE_ERROR_VIOLATIONS_MAX), each clipped to the protocol's bounds. */
  function refuseMessage(c: Conn, field: string, message: string, violations: readonly { field: string; message: string }[] = [{ field, message }]) {
    const clip = (x: { field: string; message: string }) => ({ field: x.field.slice(0, 200), message: x.message.slice(0, 500) });
    send(c, { type: 'error', ...clip({ field, message }), violations: violations.slice(0, EDGE_ERROR_VIOLATIONS_MAX).map(clip) });
  }

  async function received(c: Conn, text: string, isBinary: boolean) {
    let raw: unknown;
    try {
      if (isBinary) throw new Error('binary');
      raw = JSON.parse(text);
    } catch {
      refuseMessage(c, '(body)', 'is not a JSON text message');
      return;
    }
    const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
    const struct: Struct<any, any> | undefined =
      typeof type === 'string' && Object.hasOwn(EDGE_CLIENT_MESSAGES, type) ? EDGE_CLIENT_MESSAGES[type as keyof typeof EDGE_CLIENT_MESSAGES] : undefined;
    if (!struct) {
      refuseMessage(c, 'type', `must be one of ${Object.keys(EDGE_CLIENT_MESSAGES).join(', ')}`);
      return;
    }
    const r = validate(raw, struct);
    if (!r.ok) {
      refuseMessage(c, r.violations[0]?.field ?? '(body)', r.violations[0]?.message ?? 'is not a message of the edge protocol', r.violations);
      return;
    }
    const m = r.value as EdgeClientMessage;
    try {
      if (m.type === 'result') {
        const waiter = answers.get(m.id);
        // an answer to a command of another controller's (or none) is not this one's to give
        if (!waiter || waiter.controllerId !== c.controllerId) refuseMessage(c, 'id', 'is not a command sent to this controller');
        else waiter.resolve(m);
        return;
      }
      if (m.type === 'readers') {
        await noteOsdpReaders(db, c.controllerId, m.readers);
        opts.readersChanged?.(c.clientId, c.controllerId);
        return;
      }
      if (m.type === 'resync') {
        // the edge could not apply a delta: the whole snapshot again
        c.sent = null;
        await resend(c);
        return;
      }
      if (m.type === 'applied') {
        if (!c.sent || m.version > c.sent.version) {
          refuseMessage(c, 'version', `was never sent to this controller (last sent: ${c.sent?.version ?? 'none'})`);
          return;
        }
        // when that version was built: the server's own for the version it sent last, else what the edge says
        const builtAt = m.version === c.sent.version ? c.sent.builtAt : (m.builtAt ?? null);
        await recordApplied(db, c.clientId, c.controllerId, m.version, builtAt === null ? null : new Date(builtAt), new Date(m.at ?? Date.now()));
      } else {
        const version = m.type === 'hello' ? m.edgeVersion : null;
        await noteEdgePending(db, c.controllerId, m.pending, version ?? null);
        // an edge that holds a newer snapshot than this server ever numbered (the database restored from a backup):
        // numbered on from the edge's, and the whole snapshot sent again (bounded: a version past 2^52 is not raised to)
        if (m.type === 'hello' && m.snapshotVersion < 2 ** 52 && m.snapshotVersion > (c.sent?.version ?? 0)) {
          if (await raiseSnapshotVersion(db, c.clientId, c.controllerId, m.snapshotVersion)) {
            log(`edge controller ${c.controllerId} holds snapshot ${m.snapshotVersion}, newer than this server's (a restored database): numbered on from it`);
            c.sent = null;
            await resend(c);
          }
        }
      }
    } catch (e) {
      log(`edge controller ${c.controllerId}: ${e}`);
    }
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
    };
    const header = req.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7) : null;
    const alt = req.headers[API_KEY_HEADER];
    const key = typeof alt === 'string' ? alt : bearer;
    if (!key || !isApiKey(key)) return refuse(401, 'Unauthorized');
    let who: Awaited<ReturnType<typeof controllerOfKey>>;
    try {
      who = await controllerOfKey(db, key, { ip: req.socket.remoteAddress ?? '', userAgent: String(req.headers['user-agent'] ?? 'Gatehouse Edge') });
    } catch (e) {
      log(`edge connect: ${e}`);
      return refuse(503, 'Service Unavailable');
    }
    if (!who) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      opened(ws, key, who!).catch((e) => {
        log(`edge controller ${who!.controllerId}: ${e}`);
        ws.close(1011, 'server error');
      });
    });
  }

  const timer = setInterval(() => {
    for (const c of conns) void recheck(c);
  }, opts.recheckMs ?? EDGE_RECHECK_MS);
  timer.unref();
  const unlisten = access.onBuilt((clientId) => {
    for (const c of conns) if (c.clientId === clientId) void resend(c);
  });

  return {
    /** Take the edge path's upgrades of the HTTP server (the real-time endpoints keep theirs). */
    attach(server: HttpServer) {
      claimUpgrades(server, (path) => path === EDGE_CONNECT_PATH);
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        if ((req.url ?? '').split('?')[0] !== EDGE_CONNECT_PATH) return;
        void upgrade(req, socket, head);
      });
    },
    /** A change notice of the client's controllers, readers, inputs, outputs or service accounts: keys and snapshots again. */
    changed(clientId: number) {
      for (const c of conns)
        if (c.clientId === clientId)
          void recheck(c).then(() => {
            if (conns.has(c)) return resend(c);
          });
    },
    command,
    /** The controllers connected now (tests, the console later). */
    connected: () =>
      [...conns].map((c) => ({ controllerId: c.controllerId, clientId: c.clientId, version: c.sent?.version ?? 0, cuts: { ...c.cutter.stats } })),
    close() {
      clearInterval(timer);
      for (const t of goingOffline.values()) clearTimeout(t);
      goingOffline.clear();
      unlisten();
      for (const c of conns) c.ws.terminate();
      conns.clear();
      wss.close();
    },
  };
}
