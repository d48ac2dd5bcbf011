// Issue 45: the audit public key is the one a verifier needs. GET /event/manage/audit/public-key answered JSON only, and
// saved as the README said (`> audit-public.pem`) it made a genuine export read as forged. Now the PEM is offered
// (`Accept: application/x-pem-file`, `?format=pem`), verify-export reads either form, and says in words when the key
// file is missing or holds no key. `npm run audit` on an embedded database a running server holds says to stop it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCommand, bufferIo } from '../../scripts/auditCommand';
import { SERVER_PID_FILE, dataDirHolder } from '../db/db';
import { startTestServer, type TestServer } from '../testkit';
import { AUDIT_EXPORT_PATH, AUDIT_PUBLIC_KEY_PATH } from './routes';

let s: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-verifier-key-'));
let exportFile = '';

beforeAll(async () => {
  s = await startTestServer();
  const nw = await s.loginTo('admin', 'NORTHWIND');
  const r = await fetch(`${s.base}${AUDIT_EXPORT_PATH}`, { headers: { authorization: `Bearer ${nw}` } });
  expect(r.status).toBe(200);
  exportFile = join(dir, 'export.ndjson');
  writeFileSync(exportFile, await r.text());
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const verifyExport = async (...args: string[]) => {
  const io = bufferIo({ ...process.env });
  const code = await auditCommand(['verify-export', exportFile, ...args], io);
  return { code, out: io.text() };
};

describe('the public key a verifier needs', () => {
  it('is offered as a PEM file (Accept or ?format=pem), and as JSON to the console', async () => {
    for (const r of [
      await fetch(`${s.base}${AUDIT_PUBLIC_KEY_PATH}`, { headers: { accept: 'application/x-pem-file' } }),
      await fetch(`${s.base}${AUDIT_PUBLIC_KEY_PATH}?format=pem`),
    ]) {
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('application/x-pem-file');
      expect(r.headers.get('content-disposition')).toBe('attachment; filename="gatehouse-audit-public.pem"');
      expect(await r.text()).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    }
    const json = await fetch(`${s.base}${AUDIT_PUBLIC_KEY_PATH}`);
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(await json.json()).toMatchObject({ algorithm: 'Ed25519', publicKey: expect.stringContaining('BEGIN PUBLIC KEY') });
  });

  it('verifies a genuine export saved either way (the PEM, or the JSON answer as the README once said to save it)', async () => {
    const pem = join(dir, 'audit-public.pem');
    writeFileSync(pem, await (await fetch(`${s.base}${AUDIT_PUBLIC_KEY_PATH}?format=pem`)).text());
    const asJson = join(dir, 'audit-public.json.pem');
    writeFileSync(asJson, await (await fetch(`${s.base}${AUDIT_PUBLIC_KEY_PATH}`)).text());
    for (const key of [pem, asJson]) {
      const r = await verifyExport('--key', key);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/^OK: \d+ records checked/m);
    }
  });

  it('says in words what is wrong when the key is missing, not a key, or another key', async () => {
    const missing = await verifyExport('--key', join(dir, 'nowhere.pem'));
    expect(missing.code).toBe(2);
    expect(missing.out).toContain('nowhere.pem: it does not exist');
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'this is not a key');
    const notKey = await verifyExport('--key', junk);
    expect(notKey.code).toBe(2);
    expect(notKey.out).toContain('junk.pem is not a public key');
    const rsa = join(dir, 'rsa.pem');
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect((await verifyExport('--key', rsa)).out).toContain('holds a rsa key, not the Ed25519 public key');
    const other = join(dir, 'other.pem');
    writeFileSync(other, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const forged = await verifyExport('--key', other);
    expect(forged.code).toBe(1);
    expect(forged.out).toContain('has no valid signature for this key');
  });
});

describe('npm run audit on an embedded database a server holds', () => {
  it('says to stop the server (no RuntimeError: Aborted() stack), and no longer once the server is gone', async () => {
    const data = join(dir, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'PG_VERSION'), '17\n');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(data, SERVER_PID_FILE), String(holder.pid));
      const io = bufferIo({ ...process.env, DATABASE_URL: '', DATA_DIR: data });
      expect(await auditCommand(['verify'], io)).toBe(2);
      expect(io.text()).toContain(`The server (process ${holder.pid}) is using the embedded database in ${data}: stop it first`);
    } finally {
      holder.kill();
    }
    await new Promise((r) => holder.once('exit', r));
    // the holder gone, the file left behind says nothing any more
    expect(dataDirHolder(data)).toBeNull();
  }, 60_000);
});
