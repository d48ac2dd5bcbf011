// The OSDP readers of Gatehouse Edge controllers on the server (issues 46, 47): their status as each edge reports it
// (address, identity from PDID, capabilities from PDCAP, secure channel state, error counters; migration 136), and
// re-pairing a reader, an audited administrator action of the Hardware area (edit card readers): the server sends it
// over the controller's link, and the edge forgets that reader's key and pairs it again with SCBK-D in install mode,
// for that bus address only. Another client's reader or controller is 404; an edge that is offline refuses (409).
// Each reported reader comes with the card reader of the controller at its bus address (the Hardware screens' Re-pair);
// the card reader's page reads its own one (`…/card-readers/:id/osdp`, privilege view card readers).
import type { FastifyInstance } from 'fastify';
import {
  FIXED_SAID,
  OSDP_SCAN_ADDRESSES,
  OSDP_ALL_ADDRESSES,
  OSDP_WIDE_SCAN_MS,
  OsdpFoundAnswer,
  interfacesResource,
  OsdpReadersAnswer,
  OsdpRepairAnswer,
  OsdpComsetAnswer,
  OsdpComsetRequest,
  OSDP_BAUD_RATES,
  type OsdpReadersNotice,
  PRIV,
  cardReadersResource,
  controllersResource,
  type EdgeReaderStatus,
  type Sentence,
  saidAsMessage,
} from '../../contract';
import type { RouteDoc } from '../openapi/declared';
import { audit } from '../audit/trail';
import type { Db } from '../db/db';
import {
  cardReaderAt,
  clientCardReader,
  clientControllerId,
  controllerCardReaders,
  moveCardReader,
  readersNoticeRow,
  reportedReaders,
  scanControllers,
} from '../db/queries/osdpReaders';
import { HardwareError } from '../doors/port';
import { HttpError, body, clientOf, fill, saidOf } from '../http/kit';
import type { Publish } from '../monitor/pipeline';
import type { EdgeHub } from './hub';

/** An answer's words: its English, with its key and values when it has them (the console says them by the key). */
const keyed = (s: string | Sentence) => (typeof s === 'string' ? { message: s } : saidAsMessage(s));

const idOf = (req: { params: unknown }) => {
  const id = Number((req.params as { id?: string }).id);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return null;
  return id;
};

/** What each route validates and answers, for the API description (server/openapi). */
const DOCS = {
  controller: { response: OsdpReadersAnswer, summary: "The controller's OSDP readers as its Gatehouse Edge last reported them" },
  cardReader: { response: OsdpReadersAnswer, summary: "The OSDP reader at the card reader's bus address, as its Gatehouse Edge last reported it" },
  scan: { response: OsdpFoundAnswer, summary: "Scans each connected edge controller's OSDP bus for readers not configured yet (pre-add)" },
  repair: { response: OsdpRepairAnswer, summary: 'Re-pairs the OSDP reader (install mode with SCBK-D, then a fresh key); audited' },
  comset: {
    body: OsdpComsetRequest,
    response: OsdpComsetAnswer,
    summary: "Moves the OSDP reader to another bus address and/or speed (osdp_COMSET); the card reader's record follows; audited",
  },
} satisfies Record<string, RouteDoc>;

/** The controller's last report (already tenant-checked), each reader with the card reader at its bus address. */
async function answerOf(
  db: Db,
  hub: EdgeHub,
  controllerId: number,
  only?: { address: number; cardReader: { id: number; name: string } },
): Promise<OsdpReadersAnswer> {
  const row = await reportedReaders(db, controllerId);
  const raw = row?.osdp_readers;
  const reported = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as EdgeReaderStatus[];
  const cardReaders = await controllerCardReaders(db, controllerId);
  const byAddress = new Map<number, { id: number; name: string }>();
  for (const r of cardReaders) if (!byAddress.has(Number(r.address))) byAddress.set(Number(r.address), { id: Number(r.id), name: r.name });
  const at = row?.osdp_readers_at;
  return {
    controllerId,
    edge: !!row?.edge,
    // the hub's own connections (the stored times may be stale after a restart of the server)
    online: hub.connected().some((c) => c.controllerId === controllerId),
    reportedAt: at ? new Date(at).toISOString() : null,
    readers: reported
      .filter((r) => !only || r.address === only.address)
      .sort((a, b) => a.address - b.address)
      // a card reader's own page names that card reader (another may share its address on the bus)
      .map((r) => ({ ...r, cardReader: only ? only.cardReader : (byAddress.get(r.address) ?? null) })),
  };
}

/**
 * The `/osdp-readers` notice of a controller whose readers changed (its edge reported, its link came or went), with the
 * controller's division: only consoles that may see that division hear it (as its heart-beats). Null: no such controller.
 */
export async function readersNotice(db: Db, hub: EdgeHub, controllerId: number): Promise<{ body: OsdpReadersNotice; division: number | null } | null> {
  const row = await readersNoticeRow(db, controllerId);
  if (!row) return null;
  const at = row.osdp_readers_at;
  return {
    body: { controllerId, online: hub.connected().some((c) => c.controllerId === controllerId), reportedAt: at ? new Date(at).toISOString() : null },
    division: row.division_id === null ? null : Number(row.division_id),
  };
}

export function edgeReaderRoutes(app: FastifyInstance, { db, hub, publish }: { db: Db; hub: EdgeHub; publish?: Publish }) {
  /** GET …/controllers/:id/osdp-readers: the controller's OSDP readers as its edge last reported them. */
  app.get(
    `${controllersResource.api}/:id/osdp-readers`,
    { config: { privileges: [PRIV.controllers.view], touches: 'client', ...DOCS.controller } },
    async (req) => {
      const clientId = clientOf(req);
      const id = idOf(req);
      const controller = id ? await clientControllerId(db, clientId, id) : undefined;
      if (controller === undefined) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Controller' }));
      return answerOf(db, hub, controller);
    },
  );

  /** GET …/card-readers/:id/osdp: the OSDP reader at the card reader's bus address on its controller (the card reader's page). */
  app.get(`${cardReadersResource.api}/:id/osdp`, { config: { privileges: [PRIV.cardReaders.view], touches: 'client', ...DOCS.cardReader } }, async (req) => {
    const clientId = clientOf(req);
    const id = idOf(req);
    const r = id ? await clientCardReader(db, clientId, id) : undefined;
    if (!r) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Card reader' }));
    return answerOf(db, hub, Number(r.controller_id), { address: Number(r.address), cardReader: { id: Number(r.id), name: r.name } });
  });

  /**
   * GET …/interfaces/discover-osdp: Hardware → Interface → pre-add. Each connected edge controller of the client scans
   * its bus at the addresses where it has no card reader (0–15; `?addresses=all`: 0–126) at the line's speed, and with
   * `?speeds=all` at each other OSDP speed too; a reader found and then added as a card reader is paired by its edge
   * (install mode). Scans run side by side, one per controller; an edge that fails or is slow is named. A wide scan is
   * bounded (OSDP_WIDE_SCAN_MS): the edge answers with what it found and how many addresses it did not ask.
   */
  app.get(`${interfacesResource.api}/discover-osdp`, { config: { privileges: [PRIV.interfaces.add], touches: 'client', ...DOCS.scan } }, async (req) => {
    const clientId = clientOf(req);
    const q = (req.query ?? {}) as Record<string, unknown>;
    for (const k of ['addresses', 'speeds'])
      if (q[k] !== undefined && q[k] !== 'all')
        throw new HttpError(400, fill('osdp.scanAllOnly', 'Scan: addresses and speeds take only all', {}), [
          { field: k, ...fill('osdp.allWhenGiven', 'must be all when given', {}) },
        ]);
    const wide = q.addresses === 'all' || q.speeds === 'all';
    const live = [
      ...new Set(
        hub
          .connected()
          .filter((c) => c.clientId === clientId)
          .map((c) => c.controllerId),
      ),
    ];
    const rows = await scanControllers(db, clientId, live);
    const answer: OsdpFoundAnswer = { items: [], controllers: [] };
    const asked = await Promise.all(
      rows.map(async (c) => {
        const taken = new Set((c.taken ?? []).map(Number));
        const addresses = (q.addresses === 'all' ? OSDP_ALL_ADDRESSES : OSDP_SCAN_ADDRESSES).filter((a) => !taken.has(a));
        if (!addresses.length) return { c, ok: true, ...saidAsMessage(fill('osdp.everyAddressTaken', 'every address has a card reader', {})), found: [] };
        const scan = {
          type: 'scan' as const,
          addresses,
          ...(q.speeds === 'all' ? { speeds: [...OSDP_BAUD_RATES] } : {}),
          ...(wide ? { withinMs: OSDP_WIDE_SCAN_MS } : {}),
        };
        try {
          const r = await hub.command(Number(c.id), scan, c.name, wide ? OSDP_WIDE_SCAN_MS + 10_000 : undefined);
          return { c, ok: r.ok, ...keyed(saidOf(r)), found: r.found ?? [] };
        } catch (e) {
          return { c, ok: false, ...keyed(e instanceof Error ? saidOf(e) : String(e)), found: [] };
        }
      }),
    );
    for (const { c, found, ...said } of asked) {
      answer.controllers.push({ controllerId: Number(c.id), controllerName: c.name, ...said });
      for (const f of found) answer.items.push({ ...f, controllerId: Number(c.id), controllerName: c.name });
    }
    return answer;
  });

  /** POST …/card-readers/:id/repair: re-pair the OSDP reader (audited). */
  app.post(`${cardReadersResource.api}/:id/repair`, { config: { privileges: [PRIV.cardReaders.edit], touches: 'client', ...DOCS.repair } }, async (req) => {
    const clientId = clientOf(req);
    const id = idOf(req);
    const reader = id ? await clientCardReader(db, clientId, id) : undefined;
    if (!reader) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Card reader' }));
    if (!reader.edge)
      throw new HttpError(
        409,
        fill('osdp.notOnEdgeToPair', '{reader} is not on a Gatehouse Edge controller: there is no OSDP reader to pair', { reader: reader.name }),
      );
    if (reader.address > 126)
      throw new HttpError(400, fill('osdp.busAddressOutOfRange', 'Bus address must be 0–126 for an OSDP reader', {}), [
        { field: 'address', ...fill('osdp.busAddressRange', 'must be 0–126 for an OSDP reader', {}) },
      ]);
    let result;
    try {
      result = await hub.command(Number(reader.controller_id), { type: 'repair', address: Number(reader.address) }, reader.name);
    } catch (e) {
      if (e instanceof HardwareError) throw new HttpError(e.status, saidOf(e));
      throw e;
    }
    if (!result.ok) throw new HttpError(409, saidOf(result));
    await audit(db, req, {
      clientId,
      action: 're-pair',
      entity: 'cardReader',
      entityId: reader.id,
      before: null,
      after: { osdp: `re-pairing ${reader.name} at bus address ${reader.address} (install mode, SCBK-D)` },
    });
    // the edge's words said by the server's key (issue 48): what it did, the reader's name and address as the server has them
    return {
      ok: true,
      ...saidAsMessage(
        fill('osdp.repairing', '{name} (bus address {address}): its key forgotten, pairing again in install mode', {
          name: reader.name,
          address: Number(reader.address),
        }),
      ),
    };
  });

  /** POST …/card-readers/:id/comset: move the OSDP reader to another bus address and/or speed (audited). */
  app.post(`${cardReadersResource.api}/:id/comset`, { config: { privileges: [PRIV.cardReaders.edit], touches: 'client', ...DOCS.comset } }, async (req) => {
    const asked = body(req.body, OsdpComsetRequest); // the contract's schema first: a bad field is a 400 naming it
    const clientId = clientOf(req);
    const reader = await edgeReaderOf(db, clientId, idOf(req));
    const { to, baud } = await comsetWanted(db, reader, asked);
    let result;
    try {
      result = await hub.command(Number(reader.controller_id), { type: 'comset', address: Number(reader.address), to, baud }, reader.name);
    } catch (e) {
      if (e instanceof HardwareError) throw new HttpError(e.status, saidOf(e));
      throw e;
    }
    if (!result.ok) throw new HttpError(409, saidOf(result));
    const before = { address: Number(reader.address), baud: reader.baud };
    await moveCardReader(db, reader.id, to);
    await audit(db, req, { clientId, action: 'comset', entity: 'cardReader', entityId: reader.id, before, after: { address: to, baud } });
    // the edge's snapshot (the card reader at its new address) and the consoles' lists follow
    hub.changed(clientId);
    publish?.(clientId, `/changes/${cardReadersResource.name}`, { resource: cardReadersResource.name, id: Number(reader.id), action: 'update' });
    return {
      ok: true,
      ...saidAsMessage(fill('osdp.movedTo', '{name}: now at bus address {address}, {baud} baud', { name: reader.name, address: to, baud })),
      address: to,
      baud,
    };
  });
}

interface EdgeReader {
  id: number;
  name: string;
  address: number;
  controller_id: number;
  /** the line's speed its edge last reported (null: not reported) */
  baud: number | null;
}

/** The card reader (404 for another client's), on an edge controller (409 otherwise), at an OSDP bus address. */
async function edgeReaderOf(db: Db, clientId: number, id: number | null): Promise<EdgeReader> {
  const r = id ? await clientCardReader(db, clientId, id) : undefined;
  if (!r) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Card reader' }));
  if (!r.edge)
    throw new HttpError(
      409,
      fill('osdp.notOnEdgeToMove', '{reader} is not on a Gatehouse Edge controller: there is no OSDP reader to move', { reader: r.name }),
    );
  if (r.address > 126)
    throw new HttpError(400, fill('osdp.busAddressOutOfRange', 'Bus address must be 0–126 for an OSDP reader', {}), [
      { field: 'address', ...fill('osdp.busAddressRange', 'must be 0–126 for an OSDP reader', {}) },
    ]);
  const reported = (typeof r.osdp_readers === 'string' ? JSON.parse(r.osdp_readers) : (r.osdp_readers ?? [])) as EdgeReaderStatus[];
  const baud = reported.find((x) => x.address === Number(r.address))?.baud ?? null;
  return { id: Number(r.id), name: r.name, address: Number(r.address), controller_id: Number(r.controller_id), baud };
}

/**
 * The address and speed asked (either kept when left out). The contract's schema has already held each to its range and
 * the OSDP speeds (`body(…, OsdpComsetRequest)`); what is checked here is what only the database knows: the line's speed
 * as its edge reported it (when none is asked), whether anything changes, and whether the address is another card
 * reader's on that controller. A 400 names the field.
 */
async function comsetWanted(db: Db, reader: EdgeReader, asked: OsdpComsetRequest): Promise<{ to: number; baud: (typeof OSDP_BAUD_RATES)[number] }> {
  const to = asked.address ?? reader.address;
  const baud = asked.baud ?? reader.baud;
  if (baud === null)
    throw new HttpError(400, fill('osdp.speedRequired', 'Speed is required: the edge has not reported the speed of its line yet', {}), [
      { field: 'baud', ...FIXED_SAID.required },
    ]);
  if (to === reader.address && baud === reader.baud)
    throw new HttpError(400, fill('osdp.nothingToChange', 'The reader is at this bus address and speed already: nothing to change', {}), [
      { field: 'address', ...fill('osdp.isReadersNow', 'is the reader’s now', {}) },
    ]);
  if (to !== reader.address) {
    const taken = await cardReaderAt(db, reader.controller_id, to, reader.id);
    if (taken !== undefined)
      throw new HttpError(400, fill('osdp.addressTaken', 'Bus address {address} is {name}’s on this controller', { address: to, name: taken }), [
        { field: 'address', ...fill('osdp.hasOtherReader', 'has another card reader', {}) },
      ]);
  }
  return { to, baud: baud as (typeof OSDP_BAUD_RATES)[number] };
}
