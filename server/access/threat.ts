// Threat levels in force (issue 12): one audited command puts a level in force for the whole client or one site (a
// division and those inside it), optionally for a number of minutes, or lowers it. The access engine decides by it
// (access/engine.ts threatAt, from the index); a level that holds doors locked also locks them at the hardware
// at once. A level set for a time reverts by itself: this clock deletes the expired row (one server wins the delete),
// audits it and tells the consoles. Configured levels are a catalogue resource (contract/resources/threatLevels.ts).
import type { FastifyInstance } from 'fastify';
import { PRIV, ThreatSetBody, fill, threatLevelsResource, type ThreatChoices, type ThreatState } from '../../contract';
import { subtree } from '../auth/access';
import type { Db } from '../db/db';
import { insertAudit } from '../db/queries/audit';
import { divisionsOf } from '../db/queries/divisions';
import { HttpError, body, clientOf, divisionsFor, principal, INVALID_REQUEST } from '../http/kit';
import { iso } from '../db/values';
import { audit } from '../audit/trail';
import type { HardwarePort } from '../doors/port';
import { commandEach } from '../edge/commands';
import { deleteExpiredThreats, doorsToHold, lowerThreat, putThreatInForce, threatInForce, threatLevel, threatLevelsOf } from '../db/queries/threatLevels';

export const THREAT_CURRENT = `${threatLevelsResource.api}/current`;
type Publish = (clientId: number, destination: string, body: unknown) => void;

async function stateOf(db: Db, clientId: number): Promise<ThreatState> {
  const r = await threatInForce(db, clientId);
  if (!r) return { level: null, divisionId: null, divisionName: null, setAt: null, setBy: null, setByName: null, until: null };
  return {
    level: { id: Number(r.level_id), name: r.name, rank: Number(r.rank), mode: r.mode },
    divisionId: r.division_id === null ? null : Number(r.division_id),
    divisionName: r.division_name,
    setAt: iso(r.set_at),
    setBy: r.set_by,
    setByName: r.set_by_name || r.set_by,
    until: iso(r.until),
  };
}

export function threatRoutes(app: FastifyInstance, { db, simulator, publish }: { db: Db; simulator: HardwarePort; publish: Publish }) {
  const told = (clientId: number, id: number) => {
    simulator.access.changed(clientId, { resource: 'threatLevels' }); // the next swipe obeys it
    publish(clientId, `/changes/${threatLevelsResource.name}`, { resource: threatLevelsResource.name, id, action: 'current' });
  };

  app.get(THREAT_CURRENT, { config: { privileges: [PRIV.doors.view, PRIV.doors.control, PRIV.overrides.view] } }, async (req) => stateOf(db, clientOf(req)));

  // what a holder of door control may set (a security operator holds it without the codes that configure levels)
  app.get(`${THREAT_CURRENT}/choices`, { config: { privileges: [PRIV.doors.control] } }, async (req): Promise<ThreatChoices> => {
    const clientId = clientOf(req);
    const controlled = divisionsFor(principal(req), [PRIV.doors.control]);
    const all = await divisionsOf(db, clientId);
    const rows = await threatLevelsOf(db, clientId);
    return {
      levels: rows.map((l) => ({ id: Number(l.id), name: l.name, rank: Number(l.rank), mode: l.mode })),
      sites: all.filter((d) => controlled.includes(d.id)).map((d) => ({ id: d.id, name: d.name })),
      wholeClient: all.every((d) => controlled.includes(d.id)),
    };
  });

  app.post(THREAT_CURRENT, { config: { privileges: [PRIV.doors.control], touches: 'client' } }, async (req): Promise<ThreatState> => {
    const clientId = clientOf(req);
    const input = body(req.body, ThreatSetBody);
    const controlled = divisionsFor(principal(req), [PRIV.doors.control]);
    const all = await divisionsOf(db, clientId);
    const divisionId = input.divisionId ?? null;
    if (divisionId !== null) {
      if (!subtree(all, divisionId).length || !controlled.includes(divisionId))
        throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Division' }));
    } else if (input.levelId !== null && all.some((d) => !controlled.includes(d.id))) {
      // setting for the whole client needs all of it; lowering is decided by where the level in force holds (below)
      throw new HttpError(403, fill('door.chooseDivision', 'You control the doors of some divisions only: choose one of them', {}));
    }
    const before = await stateOf(db, clientId);
    // the level in force is changed (replaced or lowered) only by who controls every door it covers: one row holds
    // it for the whole client, so a site's operator must not lower or narrow another site's or the whole client's
    if (before.level && (before.divisionId === null ? all.some((d) => !controlled.includes(d.id)) : !controlled.includes(before.divisionId))) {
      throw new HttpError(403, fill('threatLevel.doorsNotYours', 'The threat level in force covers doors you do not control', {}));
    }
    let level: { id: number; name: string; mode: string } | null = null;
    if (input.levelId !== null) {
      const found = await threatLevel(db, clientId, input.levelId);
      if (!found)
        throw new HttpError(400, INVALID_REQUEST, [{ field: 'levelId', ...fill('threatLevel.notOfClient', 'is not a threat level of this client', {}) }]);
      level = found;
    }
    const until = level && input.minutes ? new Date(Date.now() + input.minutes * 60_000).toISOString() : null;
    await db.transaction(async (tx) => {
      if (level) {
        await putThreatInForce(tx, { clientId, levelId: level.id, divisionId, setBy: principal(req).username, until });
      } else {
        await lowerThreat(tx, clientId);
      }
      await audit(tx, req, {
        clientId,
        action: level ? 'threat level' : 'threat level lowered',
        entity: 'threat level',
        entityId: level?.id ?? before.level?.id ?? null,
        before: before.level ? { level: before.level.name, divisionId: before.divisionId, until: before.until } : null,
        after: level ? { level: level.name, divisionId, until } : null,
      });
    });
    told(clientId, level?.id ?? before.level?.id ?? 0);
    if (level?.mode === 'locked') {
      // held locked: every door it covers is locked at the hardware now (a locked-down one is left to its lockdown)
      const site = divisionId === null ? null : subtree(all, divisionId);
      const rows = await doorsToHold(db, clientId, site);
      const nameOf = new Map(rows.map((d) => [Number(d.id), d.name]));
      // a door whose edge controller is offline is named in the answer: the level is recorded, it reaches it on reconnect
      const unreached = await commandEach(
        simulator,
        clientId,
        rows.map((d) => Number(d.id)),
        'lock',
        fill('actor.threatLevel', 'threat level {name}', { name: level.name }),
        { force: true },
      );
      for (const u of unreached) req.log.warn(`threat lock ${u.doorId}: ${u.message}`);
      const named = unreached.map((u) => ({ ...u, doorName: nameOf.get(u.doorId) }));
      return { ...(await stateOf(db, clientId)), ...(named.length ? { unreached: named } : {}) };
    }
    return stateOf(db, clientId);
  });

  // a level set for a time reverts by itself
  let timer: ReturnType<typeof setInterval> | null = null;
  async function tick(): Promise<number> {
    const rows = await deleteExpiredThreats(db);
    for (const r of rows) {
      await insertAudit(db, {
        clientId: Number(r.client_id),
        actor: 'system',
        action: 'threat level reverted',
        entity: 'threat level',
        entityId: Number(r.level_id),
        before: { level: r.name, divisionId: r.division_id },
        after: null,
      });
      told(Number(r.client_id), Number(r.level_id));
    }
    return rows.length;
  }
  app.addHook('onListen', async () => {
    timer ??= setInterval(() => {
      void tick().catch((e) => app.log.warn(`threat levels: ${e}`));
    }, 2000);
    (timer as { unref?: () => void }).unref?.();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
  });
}
