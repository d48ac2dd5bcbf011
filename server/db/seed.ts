// Demo data, written once into an empty database: two tenants with divisions, doors, controllers and
// identities, the roles a real site has, and a demo user for each role.
import { ALL_PRIVILEGE_CODES } from '../../contract';
import { hashPassword } from '../auth/passwords';
import type { Db } from './db';

export const DEMO_PASSWORD = 'Gatehouse1!';
export const DEMO_USERS = [
  { username: 'admin', name: 'Alex Admin', role: 'administrator', what: 'administrator of both demo clients; picks a client first' },
  { username: 'operator', name: 'Sam Operator', role: 'security-operator', what: 'security operator at Northwind' },
  { username: 'reception', name: 'Rita Reception', role: 'receptionist', what: 'receptionist at Northwind' },
  { username: 'hr', name: 'Hana HR', role: 'hr-manager', what: 'HR manager at Northwind' },
  { username: 'auditor', name: 'Aud Itor', role: 'auditor', what: 'auditor at Northwind' },
  { username: 'harbour', name: 'Harper Harbour', role: 'administrator', what: 'administrator of Harbour Health only' },
] as const;

const pick = (prefixes: string[]) => ALL_PRIVILEGE_CODES.filter((c) => prefixes.some((p) => c === p || c.startsWith(p + '.')));
export const ROLES: Record<string, { name: string; privileges: string[] }> = {
  administrator: { name: 'Administrator', privileges: [...ALL_PRIVILEGE_CODES] },
  'security-operator': { name: 'Security operator', privileges: [...pick(['0.1', '0.2', '0.4.5', '0.4.7', '0.6.1', '0.6.2', '0.6.4', '0.5.6']), '0.3.1.0'] },
  receptionist: { name: 'Receptionist', privileges: [...pick(['1.0', '1.1', '1.2', '1.3', '1.4']), '0.1', '0.3.1.0', '1.0.10'] },
  'hr-manager': { name: 'HR manager', privileges: [...pick(['3']), '0.1', '0.3.1.0', '0.3.1.1', '0.3.1.2', '0.6.3.0'] },
  auditor: { name: 'Auditor', privileges: [...pick(['0.6', '0.8']), '0.1', '0.3.1.0', '0.2.1.0', '0.2.2.0'] },
};

const FIRST = ['Aisha', 'Ben', 'Chen', 'Daniel', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jamal', 'Kate', 'Liam', 'Mei', 'Nadia', 'Omar', 'Priya', 'Quinn', 'Rafael', 'Siti', 'Tom', 'Uma', 'Victor', 'Wei', 'Yusuf', 'Zara'];
const LAST = ['Abdullah', 'Brown', 'Chua', 'Davies', 'Evans', 'Fernandez', 'Goh', 'Hassan', 'Ibrahim', 'Jones', 'Khan', 'Lim', 'Murphy', 'Ng', "O'Brien", 'Patel', 'Rahman', 'Smith', 'Tan', 'Wong'];

export interface SeedOptions { identitiesPerClient?: number }

export async function seed(db: Db, opts: SeedOptions = {}): Promise<boolean> {
  const { rows } = await db.query<{ n: string }>('select count(*)::text as n from clients');
  if (Number(rows[0].n) > 0) return false;
  const perClient = opts.identitiesPerClient ?? 240;
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    for (const [code, r] of Object.entries(ROLES)) {
      await tx.query('insert into roles (code, name) values ($1, $2)', [code, r.name]);
      for (const p of new Set(r.privileges)) await tx.query('insert into role_privileges (role_code, privilege) values ($1, $2)', [code, p]);
    }
    const tenants = [
      { name: 'Northwind Logistics', code: 'NORTHWIND', tz: 'Asia/Kuala_Lumpur', prefix: 'NW', email: 'security@northwind.example' },
      { name: 'Harbour Health', code: 'HARBOUR', tz: 'Europe/London', prefix: 'HH', email: 'facilities@harbour.example' },
    ];
    const ids: Record<string, { client: number; divisions: number[] }> = {};
    for (const [ti, t] of tenants.entries()) {
      const c = await tx.query<{ id: number }>('insert into clients (name, code, timezone, contact_email, address) values ($1,$2,$3,$4,$5) returning id', [t.name, t.code, t.tz, t.email, ti === 0 ? '12 Jalan Pelabuhan, Port Klang' : '1 Harbour Way, Bristol']);
      const client = c.rows[0].id;
      const hq = (await tx.query<{ id: number }>('insert into divisions (client_id, name, parent_id) values ($1, $2, null) returning id', [client, 'Headquarters'])).rows[0].id;
      const divisions = [hq];
      for (const name of ['Security', 'Operations', 'Human Resources', 'Finance', 'Facilities']) {
        divisions.push((await tx.query<{ id: number }>('insert into divisions (client_id, name, parent_id) values ($1, $2, $3) returning id', [client, name, hq])).rows[0].id);
      }
      ids[t.code] = { client, divisions };
      const doors = ['Main Entrance', 'Loading Bay', 'Server Room', 'Car Park Gate', 'Lobby Turnstile 1', 'Lobby Turnstile 2', 'Roof Access', 'Store Room', 'HR Office', 'Finance Vault'];
      for (const [i, d] of doors.entries()) await tx.query('insert into doors (client_id, division_id, name) values ($1,$2,$3)', [client, divisions[i % divisions.length], d]);
      for (let i = 1; i <= 3; i++) await tx.query('insert into controllers (client_id, name, ip_address) values ($1,$2,$3)', [client, `${t.prefix}-CTRL-0${i}`, `10.${ti + 1}.0.${10 + i}`]);
      for (let i = 1; i <= perClient; i++) {
        const first = FIRST[(i * 7 + ti) % FIRST.length];
        const last = LAST[(i * 3 + Math.floor(i / FIRST.length) + ti * 3) % LAST.length];
        const emp = `${t.prefix}-${String(i).padStart(5, '0')}`;
        const ident = await tx.query<{ id: number }>(
          'insert into identities (client_id, first_name, last_name, employee_no, email, division_id, status) values ($1,$2,$3,$4,$5,$6,$7) returning id',
          [client, first, last, emp, `${first}.${last}${i}`.toLowerCase().replace(/[^a-z0-9.]/g, '') + `@${t.code.toLowerCase()}.example`, divisions[i % divisions.length], i % 29 === 0 ? 'suspended' : 'active'],
        );
        await tx.query('insert into credentials (client_id, identity_id, type, number, facility_code) values ($1,$2,$3,$4,$5)', [client, ident.rows[0].id, 'card', `${ti + 1}${String(100000 + i)}`, 100 + ti]);
      }
    }
    const nw = ids.NORTHWIND, hb = ids.HARBOUR;
    for (const u of DEMO_USERS) {
      const multi = u.username === 'admin';
      const home = u.username === 'harbour' ? hb.client : multi ? null : nw.client;
      const user = await tx.query<{ id: number }>(
        `insert into users (username, password_hash, name, email, timezone, multi_tenancy, selected_client_id, dashboard_pages) values ($1,$2,$3,$4,$5,$6,$7,$8) returning id`,
        [u.username, hash, u.name, `${u.username}@gatehouse.example`, u.username === 'harbour' ? 'Europe/London' : 'Asia/Kuala_Lumpur', multi, home,
          JSON.stringify([
            { pageNum: 1, widgets: ['openAlarms', 'identities', 'activeCredentials', 'doors', 'controllers', 'divisions'].map((id) => ({ id })) },
            { pageNum: 2, widgets: ['recentChanges'].map((id) => ({ id })) },
          ])],
      );
      const grantClients = multi ? [nw, hb] : [u.username === 'harbour' ? hb : nw];
      for (const g of grantClients) await tx.query('insert into user_grants (user_id, role_code, client_id, division_id) values ($1,$2,$3,$4)', [user.rows[0].id, u.role, g.client, g.divisions[0]]);
    }
  });
  return true;
}
