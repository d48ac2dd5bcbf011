// Which division an event's source belongs to (issue 10), per tenant, read once and again after a change of the
// doors or the hardware: `door-N`, `reader-N`, `input-N`, `output-N` (the simulator's door sources) take the door's
// division; `iface-N` the controller's; `in-N`, `out-N` and `reader-elev-N` (hardware records) their controller's;
// a device message names its controller. Anything else belongs to no division (null). The same read tells the device
// interface which controllers are the tenant's (one cache of the controllers, not two).
import type { Db } from '../db/db';
import { sourceScopeRows } from '../db/queries/monitor';

interface Scope {
  bySource: Map<string, number>;
  byController: Map<number, number>;
  controllers: Set<number>;
}

export function createSourceScopes(db: Db) {
  const cache = new Map<number, Promise<Scope>>();
  async function load(clientId: number): Promise<Scope> {
    const { doors, controllers, inputs, outputs, cardReaders } = await sourceScopeRows(db, clientId);
    const byController = new Map<number, number>();
    for (const c of controllers) if (c.division_id !== null) byController.set(Number(c.id), Number(c.division_id));
    const bySource = new Map<string, number>();
    for (const d of doors) {
      if (d.division_id === null) continue;
      for (const kind of ['door', 'reader', 'input', 'output']) bySource.set(`${kind}-${d.id}`, Number(d.division_id));
    }
    for (const [id, division] of byController) bySource.set(`iface-${id}`, division);
    const records = (rows: { id: number; controller_id: number | null }[], prefix: string) => {
      for (const r of rows) {
        const division = r.controller_id === null ? undefined : byController.get(Number(r.controller_id));
        if (division !== undefined) bySource.set(`${prefix}-${r.id}`, division);
      }
    };
    records(inputs, 'in');
    records(outputs, 'out');
    records(cardReaders, 'reader-elev');
    return { bySource, byController, controllers: new Set(controllers.map((c) => Number(c.id))) };
  }
  function scopeOf(clientId: number): Promise<Scope> {
    let p = cache.get(clientId);
    if (!p) {
      p = load(clientId);
      p.catch(() => cache.delete(clientId));
      cache.set(clientId, p);
    }
    return p;
  }
  return {
    /** The division of an event of `clientId` from `sourceId` (or of the named controller), null when none. */
    async divisionOf(clientId: number, sourceId: string, controllerId?: number): Promise<number | null> {
      const s = await scopeOf(clientId);
      return (controllerId !== undefined ? s.byController.get(controllerId) : undefined) ?? s.bySource.get(sourceId) ?? null;
    },
    /** The divisions of many events at once (a batch): one await per tenant, then plain look-ups; null when unknown. */
    async divisionsOf(events: readonly { clientId: number; input: { sourceId: string; controllerId?: number } }[]): Promise<(number | null)[]> {
      const byClient = new Map<number, Scope | null>();
      for (const e of events) {
        if (byClient.has(e.clientId)) continue;
        byClient.set(e.clientId, await scopeOf(e.clientId).catch(() => null));
      }
      return events.map((e) => {
        const s = byClient.get(e.clientId);
        if (!s) return null;
        return (e.input.controllerId !== undefined ? s.byController.get(e.input.controllerId) : undefined) ?? s.bySource.get(e.input.sourceId) ?? null;
      });
    },
    /**
     * Which of these controllers are the tenant's. When one is not known, the tenant's sources are read once more
     * (it may be new, made through another server whose change notice this one does not hear): once per call.
     */
    async ownControllers(clientId: number, ids: Iterable<number>): Promise<Set<number>> {
      const wanted = [...ids];
      let known = (await scopeOf(clientId)).controllers;
      if (wanted.some((id) => !known.has(id))) {
        cache.delete(clientId);
        known = (await scopeOf(clientId)).controllers;
      }
      return new Set(wanted.filter((id) => known.has(id)));
    },
    /** Doors, controllers or hardware records of this tenant changed: read them again at the next event. */
    changed(clientId: number) {
      cache.delete(clientId);
    },
  };
}
