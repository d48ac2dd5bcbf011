// Demo data, written once into an empty database: two tenants with a division tree, doors, controllers and
// identities with card credentials, the roles a real site has, and a demo user for each role. Names are
// generated deterministically, so every fresh install shows the same people.
import { buildTimesheet } from './queries/attendance';
import { seedAccess } from '../access/seed';
import { ALL_PRIVILEGE_CODES, PLATFORM_PRIVILEGES, PLATFORM_ROLE, PRIV, PRIVILEGES } from '../../contract';
import { readFileSync } from 'node:fs';
import { hashPassword } from '../auth/passwords';
import type { Db } from './db';
import { addGrant, insertRole } from './queries/grants';
import { STAFF_ROLE, seedLeaveDemo } from './queries/demoLeave';
import { insertDivision } from './queries/divisions';
import { installLicense } from '../resources/licenses';
import { seedServiceAccount } from './queries/sessions';
import { tenant, tenantOf } from './tenant';

export const DEMO_PASSWORD = 'Gatehouse1!';
/** The demo sign-ins main.ts prints (and the README lists). */
export const DEMO_USERS = [
  {
    username: 'admin',
    name: 'Alex Admin',
    role: 'administrator',
    clients: ['NORTHWIND', 'HARBOUR'],
    platform: true,
    what: 'platform operator and administrator of both demo clients; picks a client first',
  },
  { username: 'operator', name: 'Sam Operator', role: 'security-operator', clients: ['NORTHWIND'], what: 'security operator at Northwind' },
  { username: 'reception', name: 'Rita Reception', role: 'receptionist', clients: ['NORTHWIND'], what: 'receptionist at Northwind' },
  { username: 'hr', name: 'Hana HR', role: 'hr-manager', clients: ['NORTHWIND'], what: 'HR manager at Northwind' },
  { username: 'auditor', name: 'Aud Itor', role: 'auditor', clients: ['NORTHWIND'], what: 'auditor at Northwind' },
  { username: 'staff', name: 'Staff', role: 'staff', clients: ['NORTHWIND'], what: 'a member of staff at Northwind: requests and follows their own leave' },
  { username: 'harbour', name: 'Harper Harbour', role: 'administrator', clients: ['HARBOUR'], what: 'administrator of Harbour Health only' },
] as const;

/** Codes equal to one of the prefixes or below it in the hierarchy. */
const under = (...prefixes: string[]) => ALL_PRIVILEGE_CODES.filter((c) => prefixes.some((p) => c === p || c.startsWith(p + '.')));
/** The visitor watchlist's view, add, edit and delete codes (PRIV.visitorWatchlist; deciding a match, 1.5.4, is not among them). */
const WATCHLIST_KEEPING: string[] = [PRIV.visitorWatchlist.view, PRIV.visitorWatchlist.add, PRIV.visitorWatchlist.edit, PRIV.visitorWatchlist.delete];
const views = PRIVILEGES.filter((p) => /^(View|Activity|Event|Identity|Calendar|Dashboard)\b/.test(p.label)).map((p) => p.code);

export const ROLES: Record<string, { name: string; privileges: string[] }> = {
  // everything inside a client; making new clients is the platform operator's (PLATFORM_PRIVILEGES)
  administrator: { name: 'Administrator', privileges: ALL_PRIVILEGE_CODES.filter((c) => !PLATFORM_PRIVILEGES.includes(c)) },
  [PLATFORM_ROLE]: { name: 'Platform operator', privileges: ['9.2.0', ...PLATFORM_PRIVILEGES, '9.2.2'] },
  // monitor, doors (and their alarms and controllers), identities read-only, reports; sees who is signed in, but
  // ending other people's sessions is the administrator's (0.2.4.1, 0.2.5.1); so are the alarm target times the
  // operator's handling is measured against (alarm settings, 0.4.7.6), and the shift boundaries (0.2.6.2)
  // security keeps the visitor watchlist (1.5.0–1.5.3): who is denied is not the front desk's to change (issue 50)
  'security-operator': {
    name: 'Security operator',
    privileges: [...under('0.1', '0.2', '0.4.5', '0.4.7', '0.5.6', '0.6.1', '0.6.2', '0.6.3', '0.6.4', '0.6.7'), '0.3.1.0', ...WATCHLIST_KEEPING].filter(
      (c) => c !== '0.2.4.1' && c !== '0.2.5.1' && c !== '0.4.7.6' && c !== '0.2.6.2',
    ),
  },
  // visitor management 1.x and identities read-only; the watchlist is read, and its matches decided, at the front desk,
  // but kept by security (a receptionist cannot take a denied person off it)
  receptionist: { name: 'Receptionist', privileges: [...under('0.1', '1'), '0.3.1.0'].filter((c) => !WATCHLIST_KEEPING.slice(1).includes(c)) },
  // time and attendance 3.x, identities view/add/edit, the identity report
  'hr-manager': { name: 'HR manager', privileges: [...under('0.1', '3'), '0.3.1.0', '0.3.1.1', '0.3.1.2', '0.6.3.0'] },
  // reports, the audit section (journal, replays, UI errors) and every view, changing nothing
  auditor: { name: 'Auditor', privileges: [...under('0.1', '0.6', '0.8'), ...views].filter((c) => !/^(0\.6\.(5|6)\.[1245])$/.test(c)) },
  staff: STAFF_ROLE, // issue 50: the dashboard and their own leave (server/db/queries/demoLeave.ts)
  // service accounts of integrations: read identities and doors through the REST API
  integration: { name: 'Integration (service account)', privileges: ['0.3.1.0', '0.4.5.0'] },
};

/** Demo service accounts (issue 4), each with one open session; they cannot sign in to the console. */
export const SERVICE_ACCOUNTS = [
  { username: 'door-sync', name: 'Door sync (integration)', client: 'NORTHWIND', ip: '10.1.0.50', userAgent: 'door-sync/2.3 (node 20)', startedMinutesAgo: 95 },
  {
    username: 'payroll-export',
    name: 'Payroll export (integration)',
    client: 'NORTHWIND',
    ip: '10.1.0.61',
    userAgent: 'payroll-export/1.4',
    startedMinutesAgo: 20,
  },
  {
    username: 'nurse-call',
    name: 'Nurse call bridge (integration)',
    client: 'HARBOUR',
    ip: '10.2.0.50',
    userAgent: 'nurse-call-bridge/4.1',
    startedMinutesAgo: 240,
  },
] as const;

const FIRST = [
  'Aisha',
  'Ben',
  'Chen',
  'Daniel',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jamal',
  'Kate',
  'Liam',
  'Mei',
  'Nadia',
  'Omar',
  'Priya',
  'Quinn',
  'Rafael',
  'Siti',
  'Tom',
  'Uma',
  'Victor',
  'Wei',
  'Yusuf',
  'Zara',
];
const LAST = [
  'Abdullah',
  'Brown',
  'Chua',
  'Davies',
  'Evans',
  'Fernandez',
  'Goh',
  'Hassan',
  'Ibrahim',
  'Jones',
  'Khan',
  'Lim',
  'Murphy',
  'Ng',
  "O'Brien",
  'Patel',
  'Rahman',
  'Smith',
  'Tan',
  'Wong',
];

/** Headquarters at the top; departments below it; a few teams below those. */
const DIVISIONS: [string, string[]][] = [
  ['Security', ['Control Room', 'Patrol']],
  ['Operations', ['Warehouse', 'Fleet']],
  ['Human Resources', []],
  ['Finance', []],
  ['Facilities', []],
];
const DOORS = [
  'Main Entrance',
  'Loading Bay',
  'Server Room',
  'Car Park Gate',
  'Lobby Turnstile 1',
  'Lobby Turnstile 2',
  'Roof Access',
  'Store Room',
  'HR Office',
  'Finance Vault',
];
/** Issue 50: a demo floor plan per client (server/db/demo/ground-floor.png) with every demo door pinned where it is,
 *  across and down in per mille, so Monitor → Floor plan and its time slider show something on a fresh start. */
const PLAN_PINS: Record<string, [number, number]> = {
  'Main Entrance': [500, 950],
  'Loading Bay': [820, 950],
  'Server Room': [700, 350],
  'Car Park Gate': [80, 883],
  'Lobby Turnstile 1': [440, 667],
  'Lobby Turnstile 2': [440, 767],
  'Roof Access': [580, 250],
  'Store Room': [740, 600],
  'HR Office': [390, 350],
  'Finance Vault': [180, 350],
};
async function seedFloorPlan(tx: Db, client: number) {
  const picture = `data:image/png;base64,${readFileSync(new URL('./demo/ground-floor.png', import.meta.url)).toString('base64')}`;
  const plan = await tx.query<{ id: number }>(
    `insert into floor_plans (client_id, name, description, image) values ($1, 'Head office, ground floor', 'Offices, lobby and loading dock', $2) returning id`,
    [client, picture],
  );
  const params: unknown[] = [plan.rows[0].id, Object.keys(PLAN_PINS), Object.values(PLAN_PINS).map((v) => v[0]), Object.values(PLAN_PINS).map((v) => v[1])];
  await tx.query(
    `insert into floor_plan_doors (client_id, floor_plan_id, door_id, x, y)
     select d.client_id, $1, d.id, p.x, p.y from doors d join unnest($2::text[], $3::int[], $4::int[]) as p(name, x, y) on p.name = d.name
     where ${tenant(params, client, 'd')}`,
    params,
  );
}
const TENANTS = [
  {
    name: 'Northwind Logistics',
    code: 'NORTHWIND',
    tz: 'Asia/Kuala_Lumpur',
    prefix: 'NW',
    email: 'security@northwind.example',
    address: '12 Jalan Pelabuhan, Port Klang',
  },
  { name: 'Harbour Health', code: 'HARBOUR', tz: 'Europe/London', prefix: 'HH', email: 'facilities@harbour.example', address: '1 Harbour Way, Bristol' },
];

export interface SeedOptions {
  /** Identities per demo client (default 240; tests use a dozen). */
  identitiesPerClient?: number;
}

/** Seeds an empty database (no clients yet); returns false and does nothing otherwise. */
export async function seed(db: Db, opts: SeedOptions = {}): Promise<boolean> {
  const perClient = opts.identitiesPerClient ?? 240;
  const hash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    // inside the transaction, so two servers starting on one empty PostgreSQL do not both seed
    await tx.query('lock table clients in exclusive mode');
    const { rows } = await tx.query<{ n: string }>('select count(*)::text as n from clients');
    if (Number(rows[0].n) > 0) return false;
    for (const [code, r] of Object.entries(ROLES)) await insertRole(tx, code, r.name, r.privileges);

    const ids: Record<string, { client: number; hq: number }> = {};
    for (const [ti, t] of TENANTS.entries()) {
      const client = (
        await tx.query<{ id: number }>('insert into clients (name, code, timezone, contact_email, address) values ($1,$2,$3,$4,$5) returning id', [
          t.name,
          t.code,
          t.tz,
          t.email,
          t.address,
        ])
      ).rows[0].id;
      const hq = await insertDivision(tx, client, 'Headquarters', null);
      const divisions = [hq];
      for (const [dept, teams] of DIVISIONS) {
        const d = await insertDivision(tx, client, dept, hq);
        divisions.push(d);
        for (const team of teams) divisions.push(await insertDivision(tx, client, team, d));
      }
      ids[t.code] = { client, hq };
      await installLicense(tx, client); // the demo license (issue 11)
      for (const [i, name] of DOORS.entries()) {
        await tx.query('insert into doors (client_id, division_id, name) values ($1,$2,$3)', [client, divisions[i % divisions.length], name]);
      }
      await seedFloorPlan(tx, client);
      for (let i = 1; i <= 3; i++) {
        await tx.query(`insert into controllers (client_id, division_id, name, ip_address, firmware, online_since) values ($1,$2,$3,$4,'GH-C4 4.2.1',now())`, [
          client,
          hq,
          `${t.prefix}-CTRL-0${i}`,
          `10.${ti + 1}.0.${10 + i}`,
        ]);
      }
      // issue 12: each door's entry reader, contact and strike, spread over the three controllers
      const doorParams: unknown[] = [];
      const ownDoor = tenantOf(doorParams, client);
      await tx.query(
        `insert into card_readers (client_id, name, door_id, direction, controller_id, address)
        select d.client_id, d.name || ' reader', d.id, 'entry', c.id, 0 from doors d
        join lateral (select id from controllers c where c.client_id = d.client_id order by id offset (d.id % 3) limit 1) c on true where ${ownDoor('d')}`,
        doorParams,
      );
      await tx.query(
        `insert into inputs (client_id, name, kind, controller_id, door_id)
        select d.client_id, d.name || ' contact', 'door-contact', c.id, d.id from doors d
        join lateral (select id from controllers c where c.client_id = d.client_id order by id offset (d.id % 3) limit 1) c on true where ${ownDoor('d')}`,
        doorParams,
      );
      await tx.query(
        `insert into outputs (client_id, name, kind, controller_id, door_id, pulse_seconds)
        select d.client_id, d.name || ' strike', 'strike', c.id, d.id, 5 from doors d
        join lateral (select id from controllers c where c.client_id = d.client_id order by id offset (d.id % 3) limit 1) c on true where ${ownDoor('d')}`,
        doorParams,
      );
      let held26 = 0;
      for (let i = 1; i <= perClient; i++) {
        const first = FIRST[(i * 7 + ti) % FIRST.length];
        const last = LAST[(i * 3 + Math.floor(i / FIRST.length) + ti * 3) % LAST.length];
        const email = `${first}.${last}${i}`.toLowerCase().replace(/[^a-z0-9.]/g, '') + `@${t.code.toLowerCase()}.example`;
        const ident = await tx.query<{ id: number }>(
          'insert into identities (client_id, first_name, last_name, employee_no, email, division_id, status) values ($1,$2,$3,$4,$5,$6,$7) returning id',
          [client, first, last, `${t.prefix}-${String(i).padStart(5, '0')}`, email, divisions[i % divisions.length], i % 29 === 0 ? 'suspended' : 'active'],
        );
        await tx.query('insert into credentials (client_id, identity_id, type, number, facility_code) values ($1,$2,$3,$4,$5)', [
          client,
          ident.rows[0].id,
          'card',
          `${ti + 1}${String(100000 + i)}`,
          100 + ti,
        ]);
        if (i === 1) held26 = ident.rows[0].id;
      }
      // issue 46: the first identity (Northwind's Hiro Davies) also holds a 26-bit H10301 card, facility 18 card 41409 (what
      // `npm run reader`'s `c` presents): no number above fits a standard Wiegand format an OSDP reader's card is read by
      if (held26)
        await tx.query(`insert into credentials (client_id, identity_id, type, number, facility_code) values ($1,$2,'card','41409',18)`, [client, held26]);
      await seedAccess(tx, client); // issue 12: schedules, access groups, a holiday, card formats
      await seedVisitorAndAttendanceSetup(tx, client, t.prefix);
    }

    const dashboardPages = JSON.stringify([
      // issue 10: the shift at a glance; each user sees the widgets their privileges answer
      {
        pageNum: 1,
        widgets: [
          'openAlarms',
          'identities',
          'activeCredentials',
          'doors',
          'controllers',
          'divisions',
          'visitorsToday',
          'attendanceToday',
          'alarmsByPriority',
          'alarmsPerHour',
          'eventsPerHour',
          'doorStatus',
        ].map((id) => ({ id })),
      },
      { pageNum: 2, widgets: [{ id: 'recentChanges' }] },
    ]);
    for (const u of DEMO_USERS) {
      const multi = u.clients.length > 1;
      const home = multi ? null : ids[u.clients[0]].client;
      const tz = TENANTS.find((t) => t.code === u.clients[0])!.tz;
      const user = await tx.query<{ id: number }>(
        `insert into users (username, password_hash, name, email, timezone, multi_tenancy, home_client_id, selected_client_id, dashboard_pages)
         values ($1,$2,$3,$4,$5,$6,$7,$7,$8) returning id`,
        [u.username, hash, u.name, `${u.username}@gatehouse.example`, tz, multi, home, dashboardPages],
      );
      // multi-tenant users start with no client selected (§2: the dashboard sends them to the clients screen)
      for (const c of u.clients) await addGrant(tx, { userId: user.rows[0].id, role: u.role, clientId: ids[c].client, divisionId: ids[c].hq });
      // the administrator of both demo clients is also the platform operator who may create clients
      if ('platform' in u && u.platform)
        await tx.query('insert into platform_grants (user_id, role_code) values ($1, $2) on conflict do nothing', [user.rows[0].id, PLATFORM_ROLE]);
    }
    for (const t of TENANTS) {
      await seedVisitsAhead(tx, ids[t.code].client);
      await seedAttendanceSwipes(tx, ids[t.code].client);
    }
    for (const s of SERVICE_ACCOUNTS) {
      const tz = TENANTS.find((t) => t.code === s.client)!.tz;
      await seedServiceAccount(tx, { ...s, clientId: ids[s.client].client, timezone: tz, role: 'integration' });
    }
    return true;
  });
}

/** The visitor section's and the attendance set-up lists, so a front desk and HR start with something to work from. */
async function seedVisitorAndAttendanceSetup(tx: Db, client: number, prefix: string): Promise<void> {
  for (const [name, minutes, approval, escort, description] of [
    ['Meeting', 60, false, false, 'A guest of a member of staff'],
    ['Interview', 90, false, true, 'A candidate, met at the front desk'],
    ['Contractor', 480, true, false, 'Work on site, approved by the host beforehand'],
    ['Delivery', 15, false, false, 'Goods to the loading bay'],
  ] as const) {
    await tx.query('insert into visit_types (client_id, name, default_minutes, needs_approval, needs_escort, description) values ($1,$2,$3,$4,$5,$6)', [
      client,
      name,
      minutes,
      approval,
      escort,
      description,
    ]);
  }
  for (const [name, location, contact] of [
    ['Acme Legal', 'Level 3, suite 301', 'Front office'],
    ['Blue Harbour Design', 'Level 5', 'Studio manager'],
  ] as const) {
    await tx.query('insert into visitor_tenants (client_id, name, location, contact_name) values ($1,$2,$3,$4)', [client, `${name}`, location, contact]);
  }
  await tx.query(
    `insert into visitor_credentials (client_id, number, kind, state)
    select $1, $2 || '-V' || lpad(n::text, 3, '0'), case when n > 15 then 'qr' else 'card' end, 'available' from generate_series(1, 20) n`,
    [client, prefix],
  );
  const office = (
    await tx.query<{ id: number }>('insert into work_schedules (client_id, name, description) values ($1,$2,$3) returning id', [
      client,
      'Office hours',
      'Monday to Friday, nine to five',
    ])
  ).rows[0].id;
  await tx.query(
    `insert into work_schedule_shifts (work_schedule_id, client_id, day, start_time, end_time)
    select $1, $2, d::text, '09:00', '17:00' from generate_series(1, 5) d`,
    [office, client],
  );
  const team = (
    await tx.query<{ id: number }>('insert into teams (client_id, name, work_schedule_id) values ($1,$2,$3) returning id', [client, 'Head office', office])
  ).rows[0].id;
  const memberParams: unknown[] = [team];
  await tx.query(
    `insert into team_members (team_id, identity_id) select $1, id from identities where ${tenant(memberParams, client)} order by id limit 8`,
    memberParams,
  );
  for (const [name, code, paid, days] of [
    ['Annual leave', 'AL', true, 20],
    ['Sick leave', 'SL', true, 10],
    ['Unpaid leave', 'UL', false, null],
  ] as const) {
    await tx.query('insert into leave_categories (client_id, name, code, paid, days_per_year) values ($1,$2,$3,$4,$5)', [client, name, code, paid, days]);
  }
  // two weeks of annual leave next month for one member of staff
  const leaveParams: unknown[] = [];
  const ownLeave = tenantOf(leaveParams, client);
  await tx.query(
    `insert into leave_records (client_id, identity_id, category_id, from_date, to_date, note, status)
    select $1, (select id from identities where ${ownLeave()} order by id limit 1), (select id from leave_categories where ${ownLeave()} and code = 'AL'),
      (date_trunc('month', now()) + interval '1 month')::date, (date_trunc('month', now()) + interval '1 month' + interval '11 days')::date, 'Family visit',
      'approved'`,
    leaveParams,
  );
  await tx.query(
    `insert into credential_stock (client_id, number, type, facility_code, batch)
    select $1, $2 || '-S' || lpad(n::text, 4, '0'), 'card', 100, 'Order 2026-114' from generate_series(1, 25) n`,
    [client, prefix],
  );
}

/** The coming days at the front desk: visitors registered ahead (upcoming visits) and hosts' requests, three waiting,
 *  one approved (its registration among the upcoming) and one declined, filed by a user of the client. Hosts are named,
 *  not linked (a demo identity stays free to delete). */
async function seedVisitsAhead(tx: Db, client: number): Promise<void> {
  const today = `(now() at time zone (select timezone from clients where id = $1))::date`;
  // every query below starts its parameters with the client ($1, named by the tenant condition)
  const inClient: unknown[] = [];
  const own = tenantOf(inClient, client);
  const user = `(select g.user_id from user_grants g where ${own('g')} order by (g.role_code = 'receptionist') desc, g.user_id limit 1)`;
  const host = (n: number) => `(select first_name || ' ' || last_name from identities where ${own()} order by id offset ${n} limit 1)`;
  const ahead: [string, string, string, number, number, string][] = [
    ['Lena', 'Fischer', 'Kraft Audit GmbH', 2, 1, 'meeting'],
    ['Tomás', 'Ruiz', 'Ruiz Electrical', 3, 2, 'contractor'],
    ['Joy', 'Okafor', '', 4, 1, 'interview'],
    ['Pak', 'Wirawan', 'FastFreight', 1, 3, 'delivery'],
  ];
  for (const [first, last, company, host_, days, purpose] of ahead) {
    await tx.query(
      `insert into visitors (client_id, first_name, last_name, company, host_name, purpose, visit_date, valid_until, status, created_by)
      select $1, $2, $3, nullif($4, ''), ${host(host_)}, $5, ${today} + $6::int, ((${today} + $6::int + 1)::timestamp at time zone c.timezone), 'expected', ${user}
      from clients c where c.id = $1`,
      [...inClient, first, last, company, purpose, days],
    );
  }
  const requests: [string, string, string, number, number, string, string][] = [
    ['Marta', 'Nowak', 'Nowak Consulting', 0, 2, 'meeting', 'Quarterly review with finance; needs a parking space.'],
    ['Ravi', 'Menon', 'CoolAir Services', 1, 5, 'contractor', 'Air-conditioning service on level 2, about four hours.'],
    ['Hannah', 'Lee', '', 2, 7, 'interview', 'Candidate for the analyst role.'],
  ];
  for (const [first, last, company, host_, days, purpose, note] of requests) {
    await tx.query(
      `insert into visit_requests (client_id, first_name, last_name, company, host_name, purpose, visit_date, note, requested_by)
      values ($1, $2, $3, nullif($4, ''), ${host(host_)}, $5, ${today} + $6::int, $7, ${user})`,
      [...inClient, first, last, company, purpose, days, note],
    );
  }
  await tx.query(
    `insert into visit_requests (client_id, first_name, last_name, company, host_name, purpose, visit_date, status, requested_by, decided_by, decided_at, visitor_id)
    select $1, v.first_name, v.last_name, v.company, v.host_name, v.purpose, v.visit_date, 'approved', ${user}, ${user}, now() - interval '1 hour', v.id
    from visitors v where ${own('v')} and v.last_name = 'Ruiz'`,
    inClient,
  );
  await tx.query(
    `insert into visit_requests (client_id, first_name, last_name, company, host_name, purpose, visit_date, status, requested_by, decided_by, decided_at, decision_note)
    values ($1, 'Gary', 'Stone', 'Stone Media', ${host(3)}, 'other', ${today} + 1, 'declined', ${user}, ${user}, now() - interval '2 hours', 'No filming on site without the director’s approval.')`,
    inClient,
  );
}

/** Two weeks of the head-office team's badge-ins at the main door (daily attendance has days to show): in between
 *  08:40 and 09:14 (some late), out between 17:05 and 18:14, now and then a day not in at all; today's arrivals so far. */
async function seedAttendanceSwipes(tx: Db, client: number): Promise<void> {
  const params: unknown[] = [];
  const own = tenantOf(params, client); // $1
  await seedLeaveDemo(tx, client); // issue 50: the teams' leave approver, the staff user's identity (the users exist by now)
  const swipes = (
    days: string,
    when: string,
  ) => `insert into events (client_id, event_code, event_source_id, event_source_name, event_point_id, event_point_name, message,
      message_code, message_values, alert, priority, division_id, identity_id, decision, reason, swipe, at)
    select $1, 5000, d.id::text, d.name, d.id::text, d.name, 'Access granted',
      -- said by its key in the operator's language (issue 48: server/monitor/events.ts labelled)
      'event.label', '{"event": "Access granted"}'::jsonb, false, 100, d.division_id, i.id, 'granted', 'granted',
      json_build_object('doorId', d.id, 'card', c.number, 'side', x.side, 'at', (extract(epoch from x.at) * 1000)::bigint), x.at
    from (select timezone tz, (now() at time zone timezone)::date today from clients where id = $1) z
    cross join (select id, name, division_id from doors where ${own()} order by id limit 1) d
    join team_members m on true join teams t on t.id = m.team_id and ${own('t')}
    join identities i on i.id = m.identity_id
    join lateral (select number from credentials where identity_id = i.id order by id limit 1) c on true
    cross join ${days} g(n)
    cross join lateral (values ('entry', ((z.today - n) + time '08:40' + ((i.id * 7 + n * 13) % 35) * interval '1 minute') at time zone z.tz),
                               ('exit', ((z.today - n) + time '17:05' + ((i.id * 11 + n * 5) % 70) * interval '1 minute') at time zone z.tz)) x(side, at)
    where extract(dow from z.today - n) between 1 and 5 and (i.id + n) % 11 <> 0 and ${when}`;
  await tx.query(swipes('generate_series(1, 14)', 'true'), params);
  await tx.query(swipes('(values (0))', `x.side = 'entry' and x.at < now()`), params);
  // and those two weeks built into the timesheet, as HR would have (Build Timesheet), up to yesterday
  const { f, t, divisions } = (
    await tx.query<{ f: string; t: string; divisions: number[] }>(
      `select ((now() at time zone timezone)::date - 14)::text f,
      ((now() at time zone timezone)::date - 1)::text t, (select array_agg(id) from divisions where ${own()}) divisions from clients where id = $1`,
      params,
    )
  ).rows[0];
  await buildTimesheet(tx, client, null, { from: f, to: t }, divisions);
}
