// Firmware [0.7.1.0]: an image is uploaded with its version (its size and SHA-256 read back), rolled out to the
// controllers chosen on it, and installed by them (the hardware simulator: event 1020, then 1021 and the new version);
// the list counts where each version runs. A bad file or version is named; another client's image is 404.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRMWARE_MAX_BYTES, firmwareResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, harbour: string, operator: string;
const api = firmwareResource.api;
const dataUrl = (b: Buffer) => `data:application/octet-stream;base64,${b.toString('base64')}`;

beforeAll(async () => {
  s = await startTestServer();
  [admin, harbour, operator] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('harbour'), s.login('operator')]);
}, 60_000);
afterAll(async () => { await s?.close(); });

describe('firmware', () => {
  it('is uploaded with its version, rolled out to the chosen controllers, and runs there once they have installed it', async () => {
    const image = Buffer.from('GH-C4 firmware 4.3.0 \u0000\u0001\u0002 binary');
    const controllers = (await s.db.query<{ id: number; firmware: string }>(`select c.id, c.firmware from controllers c join clients k on k.id = c.client_id where k.code = 'NORTHWIND' order by c.id limit 2`)).rows;
    expect(controllers).toHaveLength(2);
    const made = await s.call('POST', api, { token: admin, body: { version: 'GH-C4 4.3.0', file: dataUrl(image), notes: 'Faster reader polling', rolloutTo: [] } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ version: 'GH-C4 4.3.0', bytes: image.length, sha256: createHash('sha256').update(image).digest('hex'), installedOn: 0, installing: 0 });
    // the audit row keeps no file
    const audit = await s.db.query<any>(`select after from audit_log where entity = 'firmware image' and entity_id = $1`, [String(made.body.id)]);
    expect(audit.rows[0].after.file).toBe('(file)');
    // the list shows no file
    const listed = (await s.call('GET', `${api}?q=4.3.0`, { token: admin })).body.items[0];
    expect(listed).toMatchObject({ id: made.body.id, bytes: image.length, file: null });
    // Roll out with no controller chosen: said on the field
    const none = await s.call('POST', `${api}/${made.body.id}/rollOut`, { token: admin });
    // (the catalogue's `needs` of the action, said with its hint: the console shows the same words beside the button)
    expect([none.status, none.body.violations?.[0]?.field, none.body.violations?.[0]?.message]).toEqual([409, 'rolloutTo', firmwareResource.screens!.recordActions![0].needs!.hint]);
    const edited = await s.call('PUT', `${api}/${made.body.id}`, { token: admin, body: { version: 'GH-C4 4.3.0', file: dataUrl(image), notes: null, rolloutTo: controllers.map((c) => c.id), updatedAt: made.body.updatedAt } });
    expect(edited.status).toBe(200);
    const sent = await s.call('POST', `${api}/${made.body.id}/rollOut`, { token: admin });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ installing: 2, installedOn: 0 });
    // the controllers say they started, then (FIRMWARE_INSTALL_MS later) run the new version
    const events = (code: number) => s.count(`select id from events where event_code = $1 and message like '%4.3.0%'`, [code]);
    await s.app.simulator.heartbeat(); // the heart-beat moves a pending roll-out on
    expect(await events(1020)).toBe(2);
    await s.app.simulator.firmwareStep();
    expect(await events(1021)).toBe(0); // not yet: installing takes its time
    await s.db.query(`update controllers set firmware_sent_at = now() - interval '1 minute' where firmware_target is not null`);
    await s.app.simulator.firmwareStep();
    expect(await events(1021)).toBe(2);
    expect(await events(1020)).toBe(2);
    const after = (await s.db.query<{ firmware: string }>('select firmware from controllers where id = any($1::int[]) order by id', [controllers.map((c) => c.id)])).rows;
    expect(after.map((c) => c.firmware)).toEqual(['GH-C4 4.3.0', 'GH-C4 4.3.0']);
    expect((await s.call('GET', `${api}/${made.body.id}`, { token: admin })).body).toMatchObject({ installedOn: 2, installing: 0 });
    // another client's image is not found; a user without the code is refused
    expect((await s.call('GET', `${api}/${made.body.id}`, { token: harbour })).status).toBe(404);
    expect((await s.call('POST', `${api}/${made.body.id}/rollOut`, { token: harbour })).status).toBe(404);
    expect((await s.call('GET', api, { token: operator })).status).toBe(403);
  });

  it('refuses a file that is a link, empty or too large, and a version a controller could not report, on the field', async () => {
    const fields = async (body: Record<string, unknown>) => {
      const r = await s.call('POST', api, { token: admin, body: { version: 'GH-C4 9.9.9', file: dataUrl(Buffer.from('x')), ...body } });
      return [r.status, (r.body.violations ?? []).map((v: { field: string }) => v.field)];
    };
    expect(await fields({ file: 'https://example.com/fw.bin' })).toEqual([400, ['file']]);
    expect(await fields({ file: 'data:application/octet-stream;base64,' })).toEqual([400, ['file']]);
    expect(await fields({ file: dataUrl(Buffer.alloc(FIRMWARE_MAX_BYTES + 1)) })).toEqual([400, ['file']]);
    expect(await fields({ file: null })).toEqual([400, ['file']]);
    expect(await fields({ version: '../../etc' })).toEqual([400, ['version']]);
    expect(await fields({ version: 'GH\u0000C4' })).toEqual([400, ['version']]);
    expect(await fields({ version: 'GH\ud800C4' })).toEqual([400, ['version']]);
    expect(await fields({ notes: 'a\u0000b' })).toEqual([400, ['notes']]);
    expect(await fields({ notes: 'x'.repeat(501) })).toEqual([400, ['notes']]);
    expect(await fields({ rolloutTo: [2147483648] })).toEqual([400, ['rolloutTo.0']]);
    // another client's controller cannot be chosen: named, nothing stored
    const theirs = (await s.db.query<{ id: number }>(`select c.id from controllers c join clients k on k.id = c.client_id where k.code = 'HARBOUR' limit 1`)).rows[0].id;
    const foreign = await fields({ rolloutTo: [Number(theirs)] });
    expect(foreign[0]).toBeGreaterThanOrEqual(400);
    expect(foreign[0]).toBeLessThan(500);
    expect(foreign[1]).toEqual([expect.stringMatching(/^rolloutTo/)]);
    expect(await s.count(`select id from firmware_images where version = 'GH-C4 9.9.9'`)).toBe(0);
  });
});
