// The device interface (issue 13, issue 11): POST /api/devices/events takes a batch of controller events from a
// service account's API key (`Authorization: Bearer gh_…` or `X-API-Key`) whose role holds the device-ingest
// privilege (PRIV.deviceIngest). The key works in its own client only: a message naming another client's controller
// is refused like an unknown one, never stored. Each message is checked on its own (contract DeviceEvent): the bad
// ones come back in `rejected` with their index and reason, the good ones are persisted in the order sent, then
// published (pipeline). While as many events wait to be written as the backlog holds (INGEST_BACKLOG_MAX), a batch is
// refused whole with 503 and Retry-After: 1 before its body is read, nothing stored; the device sends it again.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { API, DeviceBatch, DeviceEvent, EVENT_CODES, PRIV, ViolationBody, validateQuickly, type DeviceBatchResult } from '../../contract';
import type { Db } from '../db/db';
import { EdgeSeqConflict, type Pipeline } from '../monitor/pipeline';
import { intrusion, labelled } from '../monitor/events';
import { HttpError, body, clientOf, fill } from './kit';
import { controllersOf, inputsWithArmedZone } from '../db/queries/ingest';
import type { EdgeIngest } from '../edge/ingest';
import { journalNumberOf, type NumberedRefusal } from '../edge/refused';
import { array, integer, nullable, string, type } from 'superstruct';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  controllers: { response: array(type({ id: integer(), name: string() })), summary: "The client's controllers, for a device's configuration" },
  events: {
    body: DeviceBatch,
    response: type({
      accepted: integer(),
      firstId: nullable(integer()),
      lastId: nullable(integer()),
      rejected: array(type({ index: integer(), violations: array(ViolationBody) })),
    }),
    summary: 'A batch of device events, each checked on its own',
  },
} satisfies Record<string, RouteDoc>;

export function ingestRoutes(app: FastifyInstance, { db, pipeline, edge }: { db: Db; pipeline: Pipeline; edge?: EdgeIngest }) {
  const config = { privileges: [PRIV.deviceIngest], touches: 'client' as const };

  /**
   * An input of the hardware records (`in-<id>`) reported active while an alarm group holding it is armed is an
   * intrusion (issue 12), as the simulator's inputs are: one query per batch that has such messages.
   */
  async function armedInputs(clientId: number, items: Parameters<Pipeline['recordMany']>[0]): Promise<void> {
    const ids = [
      ...new Set(
        items
          .filter((i) => i.input.eventCode === EVENT_CODES.inputActive)
          .map((i) => /^in-(\d{1,9})$/.exec(i.input.sourceId)?.[1])
          .filter((x): x is string => !!x)
          .map(Number),
      ),
    ];
    if (!ids.length) return;
    const rows = await inputsWithArmedZone(db, clientId, ids);
    const armed = new Map(rows.filter((r): r is typeof r & { zone: string } => !!r.zone).map((r) => [`in-${r.id}`, r]));
    for (const i of items) {
      const hit = i.input.eventCode === EVENT_CODES.inputActive ? armed.get(i.input.sourceId) : undefined;
      if (!hit) continue;
      i.input = {
        ...i.input,
        eventCode: EVENT_CODES.intrusion,
        sourceName: i.input.sourceName ?? hit.name,
        ...intrusion(hit.name, hit.zone),
      };
    }
  }

  app.get(API.deviceControllers, { config: { ...config, ...DOCS.controllers } }, async (req) => {
    const rows = await controllersOf(db, clientOf(req));
    return rows.map((r) => ({ id: Number(r.id), name: r.name }));
  });

  const refuseWhenFull = (reply: FastifyReply) => {
    if (pipeline.backlog() < pipeline.backlogMax) return;
    reply.header('retry-after', '1');
    throw new HttpError(503, fill('ingest.stillWriting', 'The server is still writing earlier events: send this batch again after Retry-After seconds', {}));
  };
  app.post(
    API.deviceEvents,
    {
      config: { ...config, ...DOCS.events },
      bodyLimit: 8 * 1024 * 1024,
      // back-pressure: while the backlog is full, a batch is refused whole (nothing stored, to be sent again) before
      // its body is read and parsed (issue 30: past saturation the refused batches, each parsed and then sent again,
      // took the processor the writer needed, and the server wrote less the more it was offered; the unread body is
      // discarded by node). A batch taken below it may pass it by its own size: at most INGEST_MAX_BATCH events. This
      // runs before the key is checked: a caller without one may be told the server is busy, and nothing more.
      onRequest: async (_req, reply) => refuseWhenFull(reply),
    },
    async (req, reply): Promise<DeviceBatchResult> => {
      const clientId = clientOf(req);
      const { events } = body(req.body, DeviceBatch);
      refuseWhenFull(reply); // filled by other batches while this one's body was read
      const rejected: DeviceBatchResult['rejected'] = [];
      const checked: { index: number; e: DeviceEvent }[] = [];
      // an edge's journal entry refused for what it says: its number used all the same (server/edge/ingest.ts)
      const numbered: NumberedRefusal[] = [];
      events.forEach((raw, index) => {
        const r = validateQuickly(raw, DeviceEvent);
        if (r.ok) checked.push({ index, e: r.value });
        else {
          const n = edge ? journalNumberOf(raw) : null;
          if (n) numbered.push({ index, ...n, violations: r.violations });
          else rejected.push({ index, violations: r.violations });
        }
      });
      // Gatehouse Edge (issue 47): a controller's key for its own controller only; journaled events once and in order
      const admitted = edge ? await edge.admit(req, clientId, checked, numbered) : null;
      const good = admitted ? admitted.good : checked;
      if (admitted) rejected.push(...admitted.rejected);
      // the tenant's controllers, from the pipeline's cache of its sources (read again after a change)
      const own = good.length ? await pipeline.ownControllers(clientId, new Set(good.map((g) => g.e.controllerId))) : new Set<number>();
      const items: Parameters<Pipeline['recordMany']>[0] = [];
      for (const { index, e } of good) {
        // another client's controller is answered as an unknown one (tenant isolation: it does not exist for this key)
        if (!own.has(e.controllerId)) {
          rejected.push({
            index,
            violations: [{ field: 'controllerId', ...fill('ingest.notKnownController', 'is not a known controller of this client', {}) }],
          });
          continue;
        }
        const input = {
          eventCode: e.eventCode,
          sourceId: e.sourceId,
          sourceName: e.sourceName ?? null,
          pointId: e.pointId,
          pointName: e.pointName,
          // a device's own words as sent (English); none: the event's label, said with its key (issue 48), an edge's too
          // (an offline one gets when beside it: server/edge/ingest.ts)
          ...(e.message !== undefined ? { message: e.message } : labelled(e.eventCode)),
          // its key and values when it sent them (an edge's events, issue 48)
          ...(e.message !== undefined && e.messageCode ? { messageCode: e.messageCode, messageValues: e.messageValues ?? {} } : {}),
          controllerId: e.controllerId,
        };
        items.push({ clientId, input: edge ? edge.input(e, input) : input });
      }
      rejected.sort((a, b) => a.index - b.index);
      let stored: Awaited<ReturnType<Pipeline['recordMany']>> | null = null;
      let seq: { edgeLastSeq?: number } = {};
      try {
        await armedInputs(clientId, items);
        // a controller's journal backlog goes behind live events (issue 47: the pipeline's resync lane)
        const writing = items.length ? pipeline.recordMany(items, admitted?.resync ? 'resync' : 'live') : Promise.resolve([]);
        admitted?.queued(); // queued in order: an edge's next batch may follow
        stored = await writing.catch((e: unknown) => {
          // an edge's events that no longer follow what is stored: nothing stored, sent again from what the server has
          if (!(e instanceof EdgeSeqConflict)) throw e;
          reply.header('retry-after', '1');
          throw new HttpError(503, fill('ingest.sendAgain', 'These events do not follow those stored: send them again after Retry-After seconds', {}));
        });
      } finally {
        if (admitted) seq = await admitted.done(stored ? items.map((it, i) => ({ input: it.input, event: stored![i] })) : null);
      }
      return {
        accepted: stored.length,
        firstId: stored.length ? Number(stored[0].id) : null,
        lastId: stored.length ? Number(stored.at(-1)!.id) : null,
        rejected,
        ...(admitted?.duplicates ? { duplicates: admitted.duplicates } : {}),
        ...(seq.edgeLastSeq !== undefined ? { edgeLastSeq: seq.edgeLastSeq } : {}),
      };
    },
  );
}
