// What the access index reads of one tenant's configuration (server/access/index.ts buildIndex; issue 12; issue 48: in
// the queries room): a dozen queries, whatever the number of swipes, each of the tenant's rows alone.
import type { OverrideFact, ThreatFact } from '../../../access/engine';
import type { Db } from '../db';
import { tenant } from '../tenant';

/** One query of the tenant's rows: `mine(alias)` is its tenant condition (tenant(), server/db/tenant.ts); `more` the
 *  query's other parameters, numbered after it. */
const rowsOf =
  (db: Db, clientId: number) =>
  async <T>(sql: (mine: (alias?: string) => string, p: (value: unknown) => string) => string) => {
    const params: unknown[] = [];
    const text = sql(
      (alias) => tenant(params, clientId, alias),
      (value) => {
        params.push(value);
        return `$${params.length}`;
      },
    );
    return (await db.query<T>(text, params)).rows;
  };

/**
 * The tenant's people as the index holds them: credentials, identities and their access groups; of the identities
 * `ids` alone when given (an identity changed: its rows are read again, not the tenant's 200,000).
 */
export async function peopleRows(db: Db, clientId: number, ids?: readonly number[]) {
  const q = rowsOf(db, clientId);
  const creds = await q<{
    id: number;
    identity_id: number;
    type: string;
    number: string;
    facility_code: number | null;
    status: string;
    valid_from: string | null;
    valid_to: string | null;
  }>(
    (mine, p) =>
      `select id, identity_id, type, number, facility_code, status, valid_from::text, valid_to::text from credentials where ${mine()}${ids ? ` and identity_id = any(${p(ids)}::int[])` : ''} order by id`,
  );
  const people = await q<{ id: number; name: string; status: string; valid_from: string | null; valid_to: string | null }>(
    (mine, p) =>
      `select id, first_name || ' ' || last_name as name, status, valid_from::text, valid_to::text from identities where ${mine()}${ids ? ` and id = any(${p(ids)}::int[])` : ''}`,
  );
  const members = await q<{ access_group_id: number; identity_id: number }>(
    (mine, p) =>
      `select m.access_group_id, m.identity_id from access_group_members m join access_groups g on g.id = m.access_group_id where ${mine('g')}${ids ? ` and m.identity_id = any(${p(ids)}::int[])` : ''}`,
  );
  return { creds, people, members };
}

/** The members of the tenant's access groups `groupIds` (a group's members changed from the group's side). */
export async function groupMemberRows(db: Db, clientId: number, groupIds: readonly number[]) {
  return rowsOf(
    db,
    clientId,
  )<{ access_group_id: number; identity_id: number }>(
    (mine, p) =>
      `select m.access_group_id, m.identity_id from access_group_members m join access_groups g on g.id = m.access_group_id where ${mine('g')} and g.id = any(${p(groupIds)}::int[])`,
  );
}

/** The tenant's configuration as the index holds it: its time zone, doors, groups, schedules, zones, card formats, overrides and the threat level in force (a few hundred rows, whatever the number of people). */
export async function configRows(db: Db, clientId: number) {
  const q = rowsOf(db, clientId);
  const [client] = (await db.query<{ timezone: string }>('select timezone from clients where id = $1', [clientId])).rows;
  const doorRows = await q<{
    id: number;
    name: string;
    mode: string;
    entry_zone_id: number | null;
    exit_zone_id: number | null;
    card_format_id: number | null;
    qr_secret: string | null;
  }>((mine) => `select id, name, mode, entry_zone_id, exit_zone_id, card_format_id, qr_secret from doors where ${mine()}`);
  const ilDoors = await q<{ interlock_id: number; door_id: number; name: string }>(
    (mine) => `select d.interlock_id, d.door_id, i.name from interlock_doors d join interlocks i on i.id = d.interlock_id where ${mine('i')}`,
  );
  const groups = await q<{ id: number; name: string }>((mine) => `select id, name from access_groups where ${mine()}`);
  const groupDoors = await q<{ access_group_id: number; door_id: number; schedule_id: number }>(
    (mine) => `select access_group_id, door_id, schedule_id from access_group_doors where ${mine()}`,
  );
  const schedules = await q<{ id: number; name: string }>((mine) => `select id, name from schedules where ${mine()}`);
  const windows = await q<{ schedule_id: number; day: string; start_time: string; end_time: string }>(
    (mine) => `select schedule_id, day, start_time, end_time from schedule_windows where ${mine()}`,
  );
  const specials = await q<{ schedule_id: number; kind: string; start_time: string; end_time: string }>(
    (mine) => `select schedule_id, kind, start_time, end_time from schedule_special_windows where ${mine()} order by id`,
  );
  const dates = await q<{ date: string; yearly: boolean; kind: string; name: string }>(
    (mine) => `select date::text, yearly, kind, name from special_dates where ${mine()}`,
  );
  const zones = await q<{ id: number; name: string; anti_passback: string; forgive_minutes: number }>(
    (mine) => `select id, name, anti_passback, forgive_minutes from access_zones where ${mine()}`,
  );
  const formats = await q<{
    id: number;
    name: string;
    bits: number;
    facility_start: number | null;
    facility_length: number | null;
    card_start: number;
    card_length: number;
  }>((mine) => `select id, name, bits, facility_start, facility_length, card_start, card_length from card_formats where ${mine()}`);
  const parity = await q<{ card_format_id: number; bit: number; type: 'even' | 'odd'; over_start: number; over_length: number }>(
    (mine) => `select card_format_id, bit, type, over_start, over_length from card_format_parity where ${mine()} order by id`,
  );

  // overrides of the last month and the future (an explainer or a simulated clock may ask about the recent past)
  const overrides = await q<{ id: number; name: string; mode: OverrideFact['mode']; from: number; to: number; door_id: number }>(
    (
      mine,
    ) => `select o.id, o.name, o.mode, (extract(epoch from o.starts_at) * 1000)::float8 as "from", (extract(epoch from o.ends_at) * 1000)::float8 as "to", d.door_id
       from door_overrides o join door_override_doors d on d.override_id = o.id where ${mine('o')} and o.ends_at > now() - interval '31 days'`,
  );
  // the threat level in force (migration 096): the doors of its site (a division and those inside it) or every door
  const [threatRow] = await q<{
    level_id: number;
    name: string;
    rank: number;
    mode: ThreatFact['mode'];
    from: number;
    until: number | null;
    division_id: number | null;
    exempt: number[] | null;
  }>(
    (mine) => `select s.level_id, l.name, l.rank, l.mode, (extract(epoch from s.set_at) * 1000)::float8 as "from",
            (extract(epoch from s.until) * 1000)::float8 as until, s.division_id,
            (select array_agg(e.access_group_id) from threat_level_exempt_groups e where e.threat_level_id = l.id) as exempt
       from threat_level_state s join threat_levels l on l.id = s.level_id where ${mine('s')}`,
  );
  return {
    client,
    doorRows,
    ilDoors,
    groups,
    groupDoors,
    schedules,
    windows,
    specials,
    dates,
    zones,
    formats,
    parity,
    overrides,
    threatRow,
  };
}

/** The tenant's doors in division `divisionId` and the divisions inside it (a threat level's site). */
export async function siteDoorIds(db: Db, clientId: number, divisionId: number): Promise<number[]> {
  const threatParams: unknown[] = [divisionId];
  return (
    await db.query<{ id: number }>(
      `with recursive site(id) as (select $1::int union select d.id from divisions d join site on d.parent_id = site.id)
      select id from doors where ${tenant(threatParams, clientId)} and division_id in (select id from site)`,
      threatParams,
    )
  ).rows.map((r) => Number(r.id));
}

/** Every client's id, in order (the index is built for each at start). */
export async function allClientIds(db: Db): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('select id from clients order by id');
  return rows.map((r) => r.id);
}
