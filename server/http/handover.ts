// The shift handover's routes (issue 31, part 3; contract/handover.ts). The shifts and the digest are the handover
// room's (server/handover/), its SQL the queries room's (server/db/queries/handover.ts). Routes:
//   GET  /event/handover/latest        the shift that ended last [0.2.6.0]
//   GET  /event/handover?end=ISO       the shift that ended at `end` (a boundary, not in the future) [0.2.6.0]
//   POST /event/handover/acknowledge   {end, note?}: acknowledged once per client and shift, audited [0.2.6.1]
//   GET  /event/handover/history       the acknowledged handovers, newest first [0.2.6.0]
//   GET  /event/handover/:id           an acknowledged handover as it was acknowledged (another tenant's: 404) [0.2.6.0]
// Division scope as the alarms list: events, doors and controllers of the user's divisions for the view code, and of none.
import type { FastifyInstance } from 'fastify';
import { PRIV } from '../../contract';
import { AcknowledgeHandoverBody, HANDOVER_API, HandoverQuery, type HandoverDigest, type HandoverHistory } from '../../contract/handover';
import { eventDivisions } from '../auth/eventScope';
import type { Db } from '../db/db';
import { acknowledgedBy, handoverHistoryRows, insertHandover, storedDigest } from '../db/queries/handover';
import { iso } from '../db/values';
import { audit } from '../audit/trail';
import { acknowledgements, fullDigest, handoverDigest } from '../handover/digest';
import { shiftOf } from '../handover/shifts';
import { HttpError, body, clientOf, fill, idParam, principal, query, INVALID_REQUEST } from './kit';

const endOf = (raw: string, field = 'end') => {
  const end = new Date(raw);
  return {
    end,
    bad: () =>
      new HttpError(400, INVALID_REQUEST, [{ field, ...fill('handover.notShiftEnd', 'must be the end of one of the client’s shifts, not in the future', {}) }]),
  };
};

export function handoverRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const view = { config: { privileges: [PRIV.handover.view] } };
  const scope = (req: Parameters<typeof principal>[0]) => eventDivisions(principal(req), [PRIV.handover.view]);

  app.get(`${HANDOVER_API}/latest`, view, async (req): Promise<HandoverDigest> => {
    const clientId = clientOf(req);
    const shift = await shiftOf(db, clientId);
    if (!shift) throw new HttpError(404, fill('handover.noShiftEnded', 'No shift has ended yet', {}));
    return fullDigest(db, clientId, shift, await scope(req));
  });

  app.get(HANDOVER_API, view, async (req): Promise<HandoverDigest> => {
    const clientId = clientOf(req);
    const q = query(req.query, HandoverQuery, []);
    const { end, bad } = endOf(q.end);
    const shift = await shiftOf(db, clientId, end);
    if (!shift) throw bad();
    return fullDigest(db, clientId, shift, await scope(req));
  });

  app.get(`${HANDOVER_API}/history`, view, async (req): Promise<HandoverHistory> => {
    const clientId = clientOf(req);
    const rows = await handoverHistoryRows(db, clientId);
    return {
      items: rows.map((r) => ({
        id: Number(r.id),
        start: iso(r.shift_start)!,
        end: iso(r.shift_end)!,
        by: r.acknowledged_by,
        name: r.name || r.acknowledged_by,
        at: iso(r.acknowledged_at)!,
        note: r.note ?? null,
        open: Number(r.open),
      })),
    };
  });

  app.get(`${HANDOVER_API}/:id`, view, async (req): Promise<HandoverDigest> => {
    const clientId = clientOf(req);
    const id = idParam(req, 'Handover');
    const digest = (await storedDigest(db, clientId, id)) as HandoverDigest | undefined;
    if (!digest) throw new HttpError(404, fill('handover.notFound', 'Handover not found', {}));
    const shift = { zone: digest.zone, start: new Date(digest.start), end: new Date(digest.end) };
    return { ...digest, ...(await acknowledgements(db, clientId, shift)) };
  });

  app.post(`${HANDOVER_API}/acknowledge`, { config: { privileges: [PRIV.handover.acknowledge], touches: 'client' } }, async (req) => {
    const clientId = clientOf(req);
    const b = body(req.body, AcknowledgeHandoverBody);
    const { end, bad } = endOf(b.end);
    const shift = await shiftOf(db, clientId, end);
    if (!shift) throw bad();
    const note = b.note?.trim() ? b.note.trim() : null;
    const me = principal(req).username;
    const digest = await handoverDigest(db, clientId, shift, await eventDivisions(principal(req), [PRIV.handover.acknowledge]));
    const id = await db.transaction(async (tx) => {
      const kept = await insertHandover(tx, { clientId, shift, by: me, note, digest });
      if (kept === null) return null;
      await audit(tx, req, {
        clientId,
        action: 'acknowledge',
        entity: 'shift handover',
        entityId: kept,
        before: null,
        after: { shiftStart: shift.start.toISOString(), shiftEnd: shift.end.toISOString(), note, openAlarms: digest.alarms.open.length },
      });
      return kept;
    });
    if (id === null) {
      const h = await acknowledgedBy(db, clientId, shift.end);
      throw new HttpError(
        409,
        fill('handover.alreadyAcknowledged', 'This handover was already acknowledged by {name} at {at}', {
          name: h?.name || h?.acknowledged_by || '',
          at: iso(h?.acknowledged_at) ?? '',
        }),
      );
    }
    return { id, acknowledged: true };
  });
}
