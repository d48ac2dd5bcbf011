// The device ingest's fixed queries (server/http/ingest.ts; issue 48: in the queries room).
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The client's inputs of these ids, each with the name of the first armed alarm group it is in (null: none armed). */
export async function inputsWithArmedZone(db: Db, clientId: number, ids: number[]): Promise<{ id: number; name: string; zone: string | null }[]> {
  const params: unknown[] = [ids];
  const { rows } = await db.query<{ id: number; name: string; zone: string | null }>(
    `select i.id, i.name, (select g.name from alarm_groups g join alarm_group_inputs x on x.alarm_group_id = g.id
                             where x.input_id = i.id and g.state = 'armed' order by g.id limit 1) as zone
         from inputs i where i.id = any($1::int[]) and ${tenant(params, clientId, 'i')}`,
    params,
  );
  return rows;
}

/** The client's controllers, by id. */
export async function controllersOf(db: Db, clientId: number): Promise<{ id: number; name: string }[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ id: number; name: string }>(`select id, name from controllers where ${tenant(params, clientId)} order by id`, params);
  return rows;
}
