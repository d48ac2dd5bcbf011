// Licenses on the server: a key is `GH1.<payload>.<signature>` (base64url), the payload JSON signed with Ed25519;
// only the public key is here (scripts/issue-license.ts holds the development private key for demo licenses). A
// tenant's license row keeps what the verified key grants; seats are counted live and a change that would exceed
// one is refused with 409 naming the limit. Routes: list, one, edit (paste a new key) — a license is never typed
// field by field, so the catalogue declares it (contract/resources/licenses.ts) with routes of its own here, using
// the same scope, privileges and audit helpers as the plugin.
import { createPublicKey, verify } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { object, optional, string } from 'superstruct';
import { licensesResource, rowSchema, type Seat } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, fill, body, clientOf, idParam, INVALID_REQUEST } from '../http/kit';
import { iso } from '../db/values';
import { audit } from '../audit/trail';
import * as q from '../db/queries/licenses';

const PUBLIC_KEY = createPublicKey(`-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAzyCfD9v2wNV4f88lrH86FmVsKWbocYndaw/gk8rGnxY=
-----END PUBLIC KEY-----
`);

/** The demo license (all modules, generous seats, any client), issued with scripts/issue-license.ts. */
export const DEMO_LICENSE_KEY =
  'GH1.eyJ2IjoxLCJsaWNlbnNlZSI6IkdhdGVob3VzZSBkZW1vIiwiY2xpZW50IjoiKiIsIm1vZHVsZXMiOlsiYWNjZXNzIiwidmlzaXRvcnMiLCJtb25pdG9yIiwicmVwb3J0cyJdLCJzZWF0cyI6eyJpZGVudGl0aWVzIjoyNTAwMDAsImRvb3JzIjo1MDAsInJlYWRlcnMiOjEwMDAsIm9wZXJhdG9ycyI6MTAwfSwidmFsaWRUbyI6IjIwMzAtMTItMzEifQ.zzw2DViY9IVMOTtJh24aA-Op7EkNsA5mNag1J3vmycStS4WpFyxnFZLD1k423Ka8arKKDYjLpcD5nuF_Ji07BA';

export interface LicenseGrant {
  licensee: string;
  client: string;
  modules: string[];
  seats: Record<Seat, number>;
  validTo: string;
}
const INT = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 10_000_000;

/** The grant of a key whose signature verifies, or a sentence saying why not. */
export function verifyLicenseKey(key: string): LicenseGrant | string {
  const m = /^GH1\.([A-Za-z0-9_-]{10,3000})\.([A-Za-z0-9_-]{80,90})$/.exec(key.trim());
  if (!m) return 'is not a Gatehouse license key (GH1.…)';
  let ok: boolean;
  try {
    ok = verify(null, Buffer.from(m[1]), PUBLIC_KEY, Buffer.from(m[2], 'base64url'));
  } catch {
    ok = false;
  }
  if (!ok) return 'has a signature that does not verify: it was changed or not issued by Gatehouse';
  let p: any;
  try {
    p = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8'));
  } catch {
    return 'has an unreadable payload';
  }
  const s = p?.seats;
  if (
    p?.v !== 1 ||
    typeof p.licensee !== 'string' ||
    typeof p.client !== 'string' ||
    !Array.isArray(p.modules) ||
    !p.modules.every((x: unknown) => typeof x === 'string') ||
    !s ||
    !INT(s.identities) ||
    !INT(s.doors) ||
    !INT(s.readers) ||
    !INT(s.operators) ||
    typeof p.validTo !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}$/.test(p.validTo)
  ) {
    return 'has a payload this server does not understand';
  }
  return {
    licensee: p.licensee.slice(0, 200),
    client: p.client,
    modules: p.modules,
    seats: { identities: s.identities, doors: s.doors, readers: s.readers, operators: s.operators },
    validTo: p.validTo,
  };
}

async function writeLicense(tx: Db, clientId: number, key: string, g: LicenseGrant) {
  await q.upsertLicense(tx, clientId, { licenseKey: key, licensee: g.licensee, modules: g.modules.join(', '), seats: g.seats, validTo: g.validTo });
}

/** Seed and tests: install a key (verified) for a tenant. */
export async function installLicense(tx: Db, clientId: number, key = DEMO_LICENSE_KEY) {
  const g = verifyLicenseKey(key);
  if (typeof g === 'string') throw new Error(`license key ${g}`);
  await writeLicense(tx, clientId, key, g);
}

/**
 * Refuses (409) a change that would put `adding` more of `seat` over the tenant's license. No license row: no
 * limit. Call inside the writing transaction; the license row is locked so two imports cannot both take the last seats.
 */
export async function assertSeats(tx: Db, clientId: number, seat: Seat, adding: number) {
  if (adding <= 0) return;
  const l = await q.lockedSeats(tx, clientId, seat);
  if (!l) return;
  if (l.used + adding > l.seats) {
    const free = Math.max(0, l.seats - l.used);
    throw new HttpError(
      409,
      fill(
        'license.limitReached',
        'License limit reached: {seat} seats {seats} ({used} in use, {free} free); adding {adding} would exceed it. Ask for a license with more {seat} seats.',
        { seat, seats: l.seats, used: l.used, free, adding },
      ),
    );
  }
}

const toRow = (x: Record<string, unknown>) => ({ ...x, createdAt: iso(x.createdAt), updatedAt: iso(x.updatedAt) });
export const LicenseRow = rowSchema(licensesResource);
export const LicenseInput = object({ licenseKey: string(), updatedAt: optional(string()) });

export function licenseRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const r = licensesResource;
  const load = async (dbx: Db, clientId: number, id: number, lock = false) => {
    const row = await q.licenseRow(dbx, clientId, id, lock);
    if (!row) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'License' }));
    return toRow(row);
  };
  app.get(r.api, { config: { privileges: [r.privileges.view] } }, async (req) => {
    const rows = await q.licenseRows(db, clientOf(req));
    return { items: rows.map(toRow), total: rows.length, page: 0, size: rows.length || 1 };
  });
  app.get(`${r.api}/:id`, { config: { privileges: [r.privileges.view] } }, async (req) => load(db, clientOf(req), idParam(req, 'License')));
  app.put(`${r.api}/:id`, { config: { privileges: [r.privileges.edit!], touches: 'client' } }, async (req) => {
    const clientId = clientOf(req);
    const id = idParam(req, 'License');
    const input = body(req.body, LicenseInput);
    const key = input.licenseKey.trim();
    return db.transaction(async (tx) => {
      const before = await load(tx, clientId, id, true);
      if (input.updatedAt && Date.parse(input.updatedAt) !== Date.parse(String(before.updatedAt))) {
        throw new HttpError(
          409,
          fill(
            'license.changedMeanwhile',
            'Someone else changed this license since you opened it. Reload it to see their changes; your typed values are kept.',
            {},
          ),
        );
      }
      const g = verifyLicenseKey(key);
      if (typeof g === 'string') throw new HttpError(422, INVALID_REQUEST, [{ field: 'licenseKey', message: g }]);
      const code = await q.clientCode(tx, clientId);
      if (g.client !== '*' && g.client !== code)
        throw new HttpError(422, INVALID_REQUEST, [
          { field: 'licenseKey', ...fill('license.otherClient', 'is issued to client {client}, not {code}', { client: g.client, code }) },
        ]);
      if (g.validTo < new Date().toISOString().slice(0, 10))
        throw new HttpError(422, INVALID_REQUEST, [{ field: 'licenseKey', ...fill('license.expiredOn', 'expired on {day}', { day: g.validTo }) }]);
      await writeLicense(tx, clientId, key, g);
      const after = await load(tx, clientId, id);
      const view = (x: Record<string, unknown>) => ({ ...x, licenseKey: '(licenseKey)' });
      await audit(tx, req, { clientId, action: 'update', entity: 'license', entityId: id, before: view(before), after: view(after) });
      return after;
    });
  });
}
