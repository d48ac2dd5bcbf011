// Doors [0.4.5.0, as the doors screen]: the selected client's doors in the divisions the caller's door grants
// cover, with their simulated status, division and last change. Door commands [0.4.5.4, in the door's division]:
// a command that makes no sense for the door's state (contract/doors.ts) is 409 with the reason unless
// `force: true`; the last command wins over a pending momentary relock (server/simulator/strike.ts). An unknown
// door, another client's or one outside the caller's divisions is 404. Test-only: fast-forward the relocks.
// Issue 29: a door a threat level holds locked says so in the list (`heldBy`), and refuses all but Lock with 409.
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import {
  API,
  DoorCommandBody,
  DoorQrBody,
  DoorQrCode,
  DoorQrRow,
  DoorView,
  Event,
  LockdownAnswer,
  LockdownBody,
  PRIV,
  Page,
  isoInstant,
  requiredText,
} from '../../contract';
import { array, boolean, integer, object, optional, type } from 'superstruct';
import { qrCode, qrWindow, threatAt, type DoorFact } from '../../access/engine';
import type { QrPublisher } from '../access/qrPublisher';
import { QR_PERIOD_S } from '../access/index';
import type { Db } from '../db/db';
import { doorModeAndName, doorQrSecret, doorVisible, listDoors, qrCredential, qrDoorIds, setDivisionsLockdown, setDoorQrSecret } from '../db/queries/doors';
import { divisionsOf } from '../db/queries/divisions';
import { subtree } from '../auth/access';
import { HardwareError, type HardwarePort, type RelockHook } from '../doors/port';
import { commandEach } from '../edge/commands';
import { HttpError, fill, saidOf, body, clientOf, divisionsFor, principal, query, INVALID_REQUEST } from './kit';
import { iso } from '../db/values';
import { audit } from '../audit/trail';
import type { RouteDoc } from '../openapi/declared';

const QrCodeQuery = object({ credential: requiredText(64), at: optional(isoInstant()) });

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  list: { response: Page(DoorView), summary: 'Doors and their live state' },
  command: { body: DoorCommandBody, response: Event },
  lockdown: { body: LockdownBody, response: LockdownAnswer },
  qr: { response: type({ items: array(DoorQrRow) }) },
  setQr: { body: DoorQrBody, response: type({ id: integer(), qr: boolean() }) },
  qrCode: { query: QrCodeQuery, response: DoorQrCode },
} satisfies Record<string, RouteDoc>;

/** The threat level that holds a door locked now (the access engine's rule: its level in force, mode 'locked'), if any. */
const threatHold = (fact: DoorFact | undefined, at: number): DoorView['heldBy'] => {
  const threat = fact ? threatAt(fact, at) : null;
  return threat?.mode === 'locked' ? { kind: 'threat', levelId: threat.levelId, rank: threat.rank, name: threat.name } : null;
};

/** The hardware's refusal as the route's: its status and sentence, a 400 with a violation of the field it names. */
export const simulatorErrors = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HardwareError) {
      const said = saidOf(e);
      throw e.field
        ? new HttpError(e.status, INVALID_REQUEST, [{ field: e.field, ...(typeof said === 'string' ? { message: said } : said) }])
        : new HttpError(e.status, said);
    }
    throw e;
  }
};

export function doorRoutes(
  app: FastifyInstance,
  { db, simulator, testHooks, qr }: { db: Db; simulator: HardwarePort & RelockHook; testHooks: boolean; qr: QrPublisher },
) {
  app.get(API.doors, { config: { privileges: [PRIV.doors.view], ...DOCS.list } }, async (req) => {
    const clientId = clientOf(req);
    const rows = await listDoors(db, clientId, divisionsFor(principal(req), [PRIV.doors.view]));
    // what holds each door against commands besides a lockdown (which the mode says): the rule the commands below
    // and the access engine decide by, read from the same index, so the console offers nothing the server refuses
    const facts = (await simulator.access.get(clientId)).doors;
    const now = Date.now();
    const items: DoorView[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      mode: r.mode,
      divisionId: r.division_id,
      divisionName: r.division_name ?? null,
      lastChangedAt: iso(r.last_changed_at),
      heldBy: r.mode === 'locked-down' ? null : threatHold(facts.get(r.id), now),
      softApb: r.soft_apb_controllers ? { controllers: r.soft_apb_controllers, since: iso(r.soft_apb_since) } : null,
    }));
    return { items, total: items.length, page: 0, size: items.length };
  });

  app.post(`${API.doors}/:id/commands`, { config: { privileges: [PRIV.doors.control], touches: 'client', ...DOCS.command } }, async (req) => {
    const clientId = clientOf(req);
    const id = Number((req.params as { id?: string }).id);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Door' }));
    const { command, force } = body(req.body, DoorCommandBody);
    if (!(await doorVisible(db, clientId, divisionsFor(principal(req), [PRIV.doors.control]), id)))
      throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Door' }));
    // a locked-down door opens for nobody, forced or not, until the lockdown is released
    const door = await doorModeAndName(db, id);
    if (door?.mode === 'locked-down' && command !== 'lock')
      throw new HttpError(409, fill('door.lockedDown', 'This door is locked down: release the lockdown first', {}));
    // a threat level that holds the doors locked holds them against commands too, until it is lowered
    const hold = command === 'lock' ? null : threatHold((await simulator.access.get(clientId)).doors.get(id), Date.now());
    if (hold)
      throw new HttpError(409, fill('door.heldByThreatLevel', 'This door is held locked by threat level {level}: lower it first', { level: hold.name }));
    const event = await simulatorErrors(() => simulator.command(clientId, id, command, principal(req).username, { force }));
    // the door's name with it: the activity report says which door in words (issue 50)
    const after = { name: door?.name ?? null, eventId: event.id, ...(force ? { force } : {}) };
    await audit(db, req, { clientId, action: command, entity: 'door', entityId: id, before: null, after });
    return event;
  });

  // Lockdown: every door the caller may control, in one transaction, remembering each door's mode; each is then
  // locked at the hardware (its state follows live on every console). Release gives each door its mode back.
  app.post(`${API.doors}/lockdown`, { config: { privileges: [PRIV.doors.control], touches: 'client', ...DOCS.lockdown } }, async (req) => {
    const clientId = clientOf(req);
    const { on, divisionId } = body(req.body, LockdownBody);
    const controlled = divisionsFor(principal(req), [PRIV.doors.control]);
    // one site or building: the division and those inside it, as far as the caller controls doors there
    let divisions = controlled;
    if (divisionId !== undefined && divisionId !== null) {
      const inside = subtree(await divisionsOf(db, clientId), divisionId);
      if (!inside.length || !controlled.includes(divisionId)) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Division' }));
      divisions = inside.filter((d) => controlled.includes(d));
    }
    const ids = await db.transaction(async (tx) => {
      const rows = await setDivisionsLockdown(tx, clientId, divisions, on);
      const doorIds = rows.map((r) => r.id).sort((a, b) => a - b);
      await audit(tx, req, {
        clientId,
        action: on ? 'lockdown' : 'release lockdown',
        entity: 'door',
        entityId: null,
        before: null,
        after: { doors: doorIds, divisionId: divisionId ?? null },
      });
      return doorIds;
    });
    simulator.access.changed(clientId, { resource: 'doors' }); // the next swipe obeys it
    // a door whose edge controller is offline is named, not a failure: its lockdown is recorded, it reaches it on reconnect
    const unreached = on ? await commandEach(simulator, clientId, ids, 'lock', principal(req).username, { force: true }) : [];
    return { on, doors: ids.length, ...(unreached.length ? { unreached } : {}) };
  });

  // ---------- door QR codes [0.4.5.5] (issue 12) ----------
  const doorOf = async (req: Parameters<typeof clientOf>[0], code: string) => {
    const id = Number((req.params as { id?: string }).id);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Door' }));
    if (!(await doorVisible(db, clientOf(req), divisionsFor(principal(req), [code]), id)))
      throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Door' }));
    return id;
  };
  app.get(`${API.doors}/qr`, { config: { privileges: [PRIV.doors.qr], touches: 'client', ...DOCS.qr } }, async (req): Promise<{ items: DoorQrRow[] }> => {
    const clientId = clientOf(req);
    const rows = await listDoors(db, clientId, divisionsFor(principal(req), [PRIV.doors.qr]));
    const qr = await qrDoorIds(db, clientId);
    const on = new Set(qr.map((r) => Number(r.id)));
    return { items: rows.map((r) => ({ id: r.id, name: r.name, divisionName: r.division_name ?? null, qr: on.has(Number(r.id)) })) };
  });
  // on: a new secret (codes shown before stop working); off: the door takes no QR codes
  app.post(`${API.doors}/:id/qr`, { config: { privileges: [PRIV.doors.qr], touches: 'client', ...DOCS.setQr } }, async (req) => {
    const clientId = clientOf(req);
    const id = await doorOf(req, PRIV.doors.qr);
    const { on } = body(req.body, DoorQrBody);
    await db.transaction(async (tx) => {
      await setDoorQrSecret(tx, id, on ? randomBytes(32).toString('base64url') : null);
      await audit(tx, req, { clientId, action: on ? 'QR codes on' : 'QR codes off', entity: 'door', entityId: id, before: null, after: { qr: on } });
    });
    simulator.access.changed(clientId, { resource: 'doors' }); // the next QR shown at the door obeys it
    if (on) await qr.announce(Date.now(), id); // a new secret: every open screen draws the new codes now
    return { id, qr: on };
  });
  // the code a credential shows at the door now (a phone's view of it), or at a past instant
  app.get(`${API.doors}/:id/qr/code`, { config: { privileges: [PRIV.doors.qr], touches: 'client', ...DOCS.qrCode } }, async (req): Promise<DoorQrCode> => {
    const clientId = clientOf(req);
    const id = await doorOf(req, PRIV.doors.qr);
    const q = query(req.query, QrCodeQuery);
    const at = q.at === undefined ? Date.now() : Date.parse(q.at);
    if (at > Date.now() + 1000)
      throw new HttpError(400, INVALID_REQUEST, [
        { field: 'at', ...fill('qr.atInFuture', 'must not be in the future (a code not yet current would be a key handed out early)', {}) },
      ]);
    const door = await doorQrSecret(db, id);
    if (!door?.qr_secret) throw new HttpError(409, fill('door.noQrCodes', 'This door takes no QR codes: turn them on first', {}));
    const cred = await qrCredential(db, clientId, q.credential.toUpperCase());
    if (!cred)
      throw new HttpError(400, INVALID_REQUEST, [{ field: 'credential', ...fill('credential.notOfClient', 'is not a credential of this client', {}) }]);
    const w = qrWindow(at, QR_PERIOD_S);
    return {
      code: qrCode(door.qr_secret, cred.number, w),
      credential: cred.number,
      identityName: cred.name,
      periodS: QR_PERIOD_S,
      validFrom: new Date(w * QR_PERIOD_S * 1000).toISOString(),
      validTo: new Date((w + 1) * QR_PERIOD_S * 1000).toISOString(),
    };
  });

  if (testHooks) {
    app.post(API.testDoorsFastForward, async (req) => {
      const ms = Number((req.body as { ms?: unknown } | null)?.ms);
      if (!Number.isFinite(ms) || ms < 0)
        throw new HttpError(400, INVALID_REQUEST, [{ field: 'ms', ...fill('number.notMilliseconds', 'must be a number of milliseconds', {}) }]);
      return { relocked: await simulator.fastForward(ms) };
    });
  }
}
