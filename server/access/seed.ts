// Demo access configuration of a seeded tenant (issue 12): the standard card formats, an "Always" and an
// "Office hours" schedule, New Year's Day as a yearly holiday, a Building zone, and a Staff group (every door, always;
// every identity a member, so the simulator grants as before) and a Security group (every door, office hours).
import type { Db } from '../db/db';
import { STANDARD_FORMATS } from './cardFormat';
import { tenant, tenantOf } from '../db/tenant';

export async function seedAccess(tx: Db, clientId: number): Promise<void> {
  for (const f of STANDARD_FORMATS) {
    const id = (
      await tx.query<{ id: number }>(
        `insert into card_formats (client_id, name, bits, facility_start, facility_length, card_start, card_length)
      values ($1,$2,$3,$4,$5,$6,$7) returning id`,
        [clientId, f.name, f.bits, f.facility?.start ?? null, f.facility?.length ?? null, f.card.start, f.card.length],
      )
    ).rows[0].id;
    for (const p of f.parity) {
      await tx.query('insert into card_format_parity (card_format_id, client_id, bit, type, over_start, over_length) values ($1,$2,$3,$4,$5,$6)', [
        id,
        clientId,
        p.bit,
        p.type,
        p.over.start,
        p.over.length,
      ]);
    }
  }
  const schedule = async (name: string, description: string, windows: [number, string, string][], special: [string, string, string][]) => {
    const id = (
      await tx.query<{ id: number }>('insert into schedules (client_id, name, description) values ($1,$2,$3) returning id', [clientId, name, description])
    ).rows[0].id;
    for (const [day, start, end] of windows)
      await tx.query('insert into schedule_windows (schedule_id, client_id, day, start_time, end_time) values ($1,$2,$3,$4,$5)', [
        id,
        clientId,
        String(day),
        start,
        end,
      ]);
    for (const [kind, start, end] of special)
      await tx.query('insert into schedule_special_windows (schedule_id, client_id, kind, start_time, end_time) values ($1,$2,$3,$4,$5)', [
        id,
        clientId,
        kind,
        start,
        end,
      ]);
    return id;
  };
  const always = await schedule(
    'Always',
    'Every day, all day, special days too.',
    [0, 1, 2, 3, 4, 5, 6].map((d) => [d, '00:00', '24:00']),
    [
      ['holiday', '00:00', '24:00'],
      ['half-day', '00:00', '24:00'],
      ['closure', '00:00', '24:00'],
    ],
  );
  const office = await schedule(
    'Office hours',
    'Monday to Friday 08:00–18:00; half days to 13:00; closed on holidays.',
    [1, 2, 3, 4, 5].map((d) => [d, '08:00', '18:00']),
    [['half-day', '08:00', '13:00']],
  );
  await tx.query(`insert into special_dates (client_id, name, date, yearly, kind) values ($1, 'New Year''s Day', '2026-01-01', true, 'holiday')`, [clientId]);
  await tx.query(`insert into access_zones (client_id, name, description) values ($1, 'Building', 'Inside the building')`, [clientId]);
  const group = async (name: string, description: string, scheduleId: number) => {
    const id = (
      await tx.query<{ id: number }>('insert into access_groups (client_id, name, description) values ($1,$2,$3) returning id', [clientId, name, description])
    ).rows[0].id;
    const params: unknown[] = [id];
    const own = tenantOf(params, clientId); // $2
    params.push(scheduleId); // $3
    await tx.query(
      `insert into access_group_doors (access_group_id, client_id, door_id, schedule_id) select $1, $2, id, $3 from doors where ${own()} order by id`,
      params,
    );
    return id;
  };
  const staff = await group('Staff', 'Every door, at any time.', always);
  const security = await group('Security', 'Every door, in office hours.', office);
  const staffParams: unknown[] = [staff];
  await tx.query(
    `insert into access_group_members (access_group_id, identity_id) select $1, id from identities where ${tenant(staffParams, clientId)}`,
    staffParams,
  );
  const securityParams: unknown[] = [security];
  await tx.query(
    `insert into access_group_members (access_group_id, identity_id) select $1, id from identities where ${tenant(securityParams, clientId)} order by id limit 3`,
    securityParams,
  );
  // two threat levels, so that an operator's Set a level on the doors screen has something to set in the demo (an
  // administrator adds more under Threat levels): the mildest asks card and PIN, the severe one holds the doors locked
  // but for the Security group (the responders)
  const level = async (name: string, rank: number, mode: string, description: string) =>
    (
      await tx.query<{ id: number }>('insert into threat_levels (client_id, name, rank, mode, description) values ($1,$2,$3,$4,$5) returning id', [
        clientId,
        name,
        rank,
        mode,
        description,
      ])
    ).rows[0].id;
  await level('Heightened', 1, 'card-pin', 'Card and PIN at every door.');
  const critical = await level('Critical', 3, 'locked', 'Every door held locked; the Security group still passes.');
  await tx.query('insert into threat_level_exempt_groups (threat_level_id, access_group_id) values ($1,$2)', [critical, security]);
}
