// The device interface (issue 13): POST /api/devices/events with the ingest token takes a batch of controller events.
// Each message is checked on its own (contract DeviceEvent, and its controller must exist): the bad ones come back in
// `rejected` with their index and reason, the good ones are persisted in the order sent, then published (pipeline).
// The token: INGEST_TOKEN when given, else generated on first start and kept in the database (printed at start-up).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API, DeviceBatch, DeviceEvent, INGEST_TOKEN_HEADER, eventLabel, validate, type DeviceBatchResult } from '../../contract';
import type { Db } from '../db/db';
import { keepSecret, secret } from '../db/queries/accounts';
import type { Pipeline } from '../monitor/pipeline';
import { HttpError, body } from './common';

export async function ingestToken(db: Db, given?: string): Promise<string> {
  if (given) return given;
  return (await secret(db, 'ingest')) ?? keepSecret(db, 'ingest', randomBytes(24).toString('base64url'));
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function ingestRoutes(app: FastifyInstance, { db, pipeline, token }: { db: Db; pipeline: Pipeline; token: string }) {
  // controller → tenant, read once and again only when a message names a controller not seen yet
  let controllers = new Map<number, number>();
  async function tenantsOf(ids: number[]): Promise<Map<number, number>> {
    if (ids.some((id) => !controllers.has(id))) {
      const { rows } = await db.query<{ id: number; client_id: number }>('select id, client_id from controllers');
      controllers = new Map(rows.map((r) => [Number(r.id), Number(r.client_id)]));
    }
    return controllers;
  }

  const authorised = (req: FastifyRequest) => {
    const given = req.headers[INGEST_TOKEN_HEADER];
    if (typeof given !== 'string' || !same(given, token)) throw new HttpError(401, 'A valid ingest token is required');
  };

  app.get(API.deviceControllers, { config: { open: true } }, async (req) => {
    authorised(req);
    const { rows } = await db.query<{ id: number; name: string }>('select id, name from controllers order by id');
    return rows.map((r) => ({ id: Number(r.id), name: r.name }));
  });

  app.post(API.deviceEvents, { config: { open: true }, bodyLimit: 8 * 1024 * 1024 }, async (req): Promise<DeviceBatchResult> => {
    authorised(req);
    const { events } = body(req.body, DeviceBatch);
    const rejected: DeviceBatchResult['rejected'] = [];
    const good: { index: number; e: DeviceEvent }[] = [];
    events.forEach((raw, index) => {
      const r = validate(raw, DeviceEvent);
      if (r.ok) good.push({ index, e: r.value });
      else rejected.push({ index, violations: r.violations });
    });
    const tenants = await tenantsOf([...new Set(good.map((g) => g.e.controllerId))]);
    const items: Parameters<Pipeline['recordMany']>[0] = [];
    for (const { index, e } of good) {
      const clientId = tenants.get(e.controllerId);
      if (clientId === undefined) { rejected.push({ index, violations: [{ field: 'controllerId', message: 'is not a known controller' }] }); continue; }
      items.push({ clientId, input: {
        eventCode: e.eventCode, sourceId: e.sourceId, sourceName: e.sourceName ?? null, pointId: e.pointId, pointName: e.pointName,
        message: e.message ?? eventLabel(e.eventCode),
      } });
    }
    rejected.sort((a, b) => a.index - b.index);
    const stored = items.length ? await pipeline.recordMany(items) : [];
    return { accepted: stored.length, firstId: stored.length ? Number(stored[0].id) : null, lastId: stored.length ? Number(stored.at(-1)!.id) : null, rejected };
  });
}
