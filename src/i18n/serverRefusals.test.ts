// Issue 48: the server's refusals reach the console as keyed sentences (code, values, English beside them), and the
// console says them in zh-CN by the key, never by looking their English up. Against the real server: a walk of every
// route Fastify registers (a record that is not there, a privilege the caller lacks), then a table of the refusals the
// last review named (second factors, divisions, the catalogue's generic writes, a fixed refusal).
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  MFA_API,
  accessZonesResource,
  backupReason,
  controllersResource,
  identitiesResource,
  messageOf,
  overridesResource,
  type Sentence,
  type Violation,
} from '../../contract';
import { startTestServer, type TestServer } from '../../server/testkit';
import { sentenceIn } from '../api/errors';
import { loadLocale, say, saySentence, tCat } from './index';
import { violationText } from './violations';

const CJK = /[\u4e00-\u9fff]/;
/** A refusal's message as the console's toast says it: by the sentence its body carries (src/api/errors.ts sentenceIn). */
const toast = (body: { message: string }, loc: 'en' | 'zh-CN') => {
  const said = sentenceIn(body, body.message);
  return said ? saySentence(said, loc) : body.message;
};
/** A violation as a form says it beside its field. */
const field = (v: Violation, loc: 'en' | 'zh-CN') => violationText(v, loc, (k, e) => tCat(k, e, loc));
/** What of an answer is not said by a key: the refusal's own message and each violation's, with where. */
const unkeyed = (body: { code?: unknown; values?: unknown; message?: string; violations?: Violation[] }) => [
  ...(typeof body.code === 'string' && body.values ? [] : [`message: ${body.message}`]),
  ...(body.violations ?? []).filter((v) => typeof v.code !== 'string' || !v.values).map((v) => `${v.field}: ${v.message}`),
];

let s: TestServer;
let admin: string; // the platform's administrator, working in Northwind: every privilege
let staff: string; // a member of staff at Northwind: their own leave, little else
beforeAll(async () => {
  s = await startTestServer({ testHooks: true }); // the simulator's route too (the end-to-end tests' device events)
  await loadLocale('zh-CN');
  admin = await s.loginTo('admin', 'NORTHWIND');
  staff = await s.login('staff');
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** The routes Fastify registers whose every path parameter is a record's id, with an id no record has. */
const byId = (methods = ['GET', 'DELETE']) =>
  s.app.routes
    .filter((r) => methods.includes(r.method) && r.url.includes('/:'))
    .filter((r) => [...r.url.matchAll(/:(\w+)/g)].every((m) => /^(id|\w+Id)$/.test(m[1])))
    .map((r) => ({ method: r.method, url: r.url, path: r.url.replace(/:\w+/g, '2147480000') }));

describe("every route's refusal, said by its key", () => {
  it('a record that is not there: every route naming one by id answers a keyed refusal the console says in zh-CN', async () => {
    const routes = byId();
    expect(routes.length).toBeGreaterThan(60); // the walk reaches the catalogue's routes and the hand-written ones
    const bad: string[] = [];
    let refused = 0;
    for (const r of routes) {
      const a = await s.call(r.method, r.path, { token: admin });
      if (a.status < 400 || a.status >= 500 || typeof a.body !== 'object') continue;
      refused++;
      const body = a.body as { message: string; code?: string };
      for (const u of unkeyed(body)) bad.push(`${r.method} ${r.url} ${a.status} ${u}`);
      if (body.code && !CJK.test(toast(body, 'zh-CN'))) bad.push(`${r.method} ${r.url}: ${body.code} has no zh-CN (${toast(body, 'zh-CN')})`);
    }
    expect(refused).toBeGreaterThan(40);
    expect(bad).toEqual([]);
  }, 120_000);

  it('a record that is not there, written to: every route that changes one by id, sent an empty body, answers a keyed refusal', async () => {
    // what it refuses first (the body's fields, or the record) is the route's to choose: whichever, it says it by its key
    // (a door command on a door that is not there said "Door not found" in English until issue 48's review)
    const routes = byId(['POST', 'PUT', 'PATCH']);
    expect(routes.length).toBeGreaterThan(40);
    const bad: string[] = [];
    let refused = 0;
    for (const r of routes) {
      const a = await s.call(r.method, r.path, { token: admin, body: {} });
      if (a.status < 400 || typeof a.body !== 'object') {
        bad.push(`${r.method} ${r.url} answered ${a.status} to an empty body for a record that is not there`);
        continue;
      }
      refused++;
      const body = a.body as { message: string; code?: string };
      for (const u of unkeyed(body)) bad.push(`${r.method} ${r.url} ${a.status} ${u}`);
    }
    expect(refused).toBeGreaterThan(40);
    expect(bad).toEqual([]);
  }, 120_000);

  it('a privilege the caller lacks: every such refusal a member of staff meets is keyed and said in zh-CN', async () => {
    const routes = s.app.routes.filter((r) => r.method === 'GET' && !r.url.includes('/:') && !r.url.includes('*'));
    const bad: string[] = [];
    let forbidden = 0;
    for (const r of routes) {
      const a = await s.call('GET', r.url, { token: staff });
      if (a.status !== 403 || typeof a.body !== 'object') continue;
      forbidden++;
      for (const u of unkeyed(a.body)) bad.push(`GET ${r.url} ${u}`);
      const zh = toast(a.body, 'zh-CN');
      if (!CJK.test(zh)) bad.push(`GET ${r.url}: ${zh}`);
    }
    expect(forbidden).toBeGreaterThan(20);
    expect(bad).toEqual([]);
  }, 120_000);
});

describe('the refusals the review named, said in zh-CN by their key', () => {
  /** A request straight to fastify (what it refuses before any route, or a body no client of ours would send). */
  const injected = async (opts: InjectOptions) => {
    const r = await s.app.inject(opts);
    return { status: r.statusCode, body: r.json() };
  };
  const TABLE: Array<{
    what: string;
    ask: () => Promise<{ status: number; body: any }>;
    status: number;
    code: string;
    field?: string;
    zh: string | (() => string);
  }> = [
    {
      what: 'a second factor confirmed with nothing',
      ask: async () => s.call('POST', MFA_API.passkeyInit, { token: await s.login('operator'), body: {} }),
      status: 400,
      field: 'password',
      code: 'mfa.passwordOrCodeRequired',
      zh: '或身份验证器应用中的验证码为必填项',
    },
    {
      what: 'a second factor confirmed with a wrong password',
      ask: async () => s.call('POST', MFA_API.passkeyInit, { token: await s.login('operator'), body: { password: 'not-it' } }),
      status: 400,
      field: 'password',
      code: 'password.isNotCurrent',
      zh: '不是当前密码',
    },
    {
      what: 'no authenticator app to remove',
      ask: async () => s.call('POST', MFA_API.totpRemove, { token: await s.login('operator'), body: { password: 'not-it' } }),
      status: 404,
      code: 'totp.noneSetUp',
      zh: '尚未设置身份验证器应用',
    },
    {
      what: 'a division moved into itself',
      ask: async () => {
        const top = (await s.call('GET', `${API.divisions}?size=100`, { token: admin })).body.items.find((d: any) => d.parentId === null);
        const wing = await s.call('POST', API.divisions, { token: admin, body: { name: 'Refusal wing', parentId: top.id } });
        return s.call('PUT', `${API.divisions}/${wing.body.id}`, { token: admin, body: { name: 'Refusal wing', parentId: wing.body.id } });
      },
      status: 400,
      field: 'parentId',
      code: 'division.isItselfOrInside',
      zh: '不能是该部门本身或其下属部门',
    },
    {
      what: "a name another access zone has (the declaration's own sentence, by its catalogue key)",
      ask: async () => {
        await s.call('POST', accessZonesResource.api, { token: admin, body: { name: 'Refusal zone' } });
        return s.call('POST', accessZonesResource.api, { token: admin, body: { name: 'Refusal zone' } });
      },
      status: 400,
      field: 'name',
      code: 'resource.accessZones.unique.name',
      zh: () => tCat('resource.accessZones.unique.name', '', 'zh-CN'),
    },
    // issue 48, the rest: a catalogue pattern (its format from the field's help, by the help's key), a rule (by its
    // catalogue key), a user-defined field not of the client, the JSON body, an identity provider, a recording's upload
    {
      what: 'an IP address not in its pattern: the format said from the catalogue help by its key',
      ask: async () => {
        const one = (await s.call('GET', `${controllersResource.api}?size=1`, { token: admin })).body.items[0];
        return s.call('PUT', `${controllersResource.api}/${one.id}`, { token: admin, body: { name: one.name, ipAddress: 'not an address' } });
      },
      status: 400,
      field: 'ipAddress',
      code: 'text.notInForm',
      zh: () => `格式应为：${tCat('resource.controllers.help.ipAddress', '', 'zh-CN').split(/[;；]/)[0].trim()}`,
    },
    {
      what: "an override's end not after its start: the declaration's rule, by its catalogue key",
      ask: async () => {
        const door = (await s.call('GET', `${API.doors}?size=1`, { token: admin })).body.items[0].id;
        const at = new Date(Date.now() + 3_600_000).toISOString();
        return s.call('POST', overridesResource.api, {
          token: admin,
          body: { name: 'Refusal override', mode: 'unlocked', startsAt: at, endsAt: at, doorIds: [door] },
        });
      },
      status: 400,
      field: 'endsAt',
      code: 'resource.overrides.rule.endsAt',
      zh: () => tCat('resource.overrides.rule.endsAt', '', 'zh-CN'),
    },
    {
      what: 'a user-defined field the client does not have',
      ask: async () => {
        const one = (await s.call('GET', `${identitiesResource.api}?size=1`, { token: admin })).body.items[0];
        const { id, clientId, divisionName, createdAt, ...input } = one;
        return s.call('PUT', `${identitiesResource.api}/${id}`, { token: admin, body: { ...input, udf: { notAField: 'x' } } });
      },
      status: 400,
      field: 'udf.notAField',
      code: 'udf.notOfClient',
      zh: '不是此客户的自定义字段',
    },
    {
      what: 'a JSON body holding a __proto__ key',
      ask: () => s.call('POST', API.login, { raw: '{"__proto__":{"admin":true},"username":"a","password":"b"}' }),
      status: 400,
      code: 'json.forbiddenKey',
      zh: 'JSON 请求体不能包含名为“__proto__”的键',
    },
    {
      what: 'an identity provider that is not configured',
      ask: () => s.call('GET', `${API.oidcStart}?provider=elsewhere`),
      status: 404,
      field: 'provider',
      code: 'iam.isNotConfiguredProvider',
      zh: '不是已配置的身份提供方',
    },
    {
      what: "a session recording's upload with a bad recording id",
      ask: () => s.call('POST', `${API.sessionJournals}/bad!`, { token: admin, raw: '{}' }),
      status: 400,
      field: 'recording',
      code: 'recording.idForm',
      zh: '必须是 8 到 64 个字母、数字或短横线',
    },
    {
      what: "a body of a media type no route takes (fastify's own refusal)",
      ask: () => injected({ method: 'POST', url: API.login, headers: { 'content-type': 'text/csv' }, payload: 'x' }),
      status: 415,
      code: 'request.unsupportedMediaType',
      zh: '不支持的媒体类型',
    },
    {
      what: "an address that does not decode (fastify's own, before any route)",
      ask: () => injected({ method: 'GET', url: `${API.doors}/%zz` }),
      status: 400,
      field: '(url)',
      code: 'request.badUrl',
      zh: `“${API.doors}/%zz”不是有效的地址`,
    },
    {
      what: "a query parameter holding a lone surrogate's bytes (answered before any route: one row proves every route)",
      ask: () => injected({ method: 'GET', url: `${identitiesResource.api}?size=5&q=%ED%A0%80`, headers: { authorization: `Bearer ${admin}` } }),
      status: 400,
      field: 'q',
      code: 'request.badQuery',
      zh: '“%ED%A0%80”不是有效的网址组成部分',
    },
    {
      what: 'a query parameter whose name does not decode',
      ask: () => injected({ method: 'GET', url: `${identitiesResource.api}?%zz=1`, headers: { authorization: `Bearer ${admin}` } }),
      status: 400,
      field: '(url)',
      code: 'request.badQuery',
      zh: '“%zz”不是有效的网址组成部分',
    },
    {
      what: 'a NUL in a query parameter (it decodes: the schema refuses it)',
      ask: () => s.call('GET', `${identitiesResource.api}?q=a%00b`, { token: admin }),
      status: 400,
      field: 'q',
      code: 'text.controlCharacters',
      zh: () => field({ field: 'q', message: '', code: 'text.controlCharacters', values: {} }, 'zh-CN'),
    },
    {
      what: 'a NUL in a record id of the path: no such record',
      ask: () => s.call('GET', `${API.doors}/1%00`, { token: admin }),
      status: 404,
      code: 'record.notFound',
      zh: '找不到该门',
    },
    {
      what: 'a path part longer than a route takes',
      ask: () => injected({ method: 'GET', url: `${API.doors}/${'9'.repeat(120)}` }),
      status: 414,
      field: '(url)',
      code: 'request.pathPartTooLong',
      zh: `“${API.doors}/${'9'.repeat(120)}”中的路径部分过长`,
    },
    {
      what: 'a body in a compression the server does not take',
      ask: () =>
        injected({
          method: 'POST',
          url: API.login,
          headers: { 'content-type': 'application/json', 'content-encoding': 'zstd-x' },
          payload: '{}',
        }),
      status: 415,
      field: '(body)',
      code: 'request.unsupportedEncoding',
      zh: '不支持的 Content-Encoding：zstd-x',
    },
    {
      what: 'a gzip body that does not unpack',
      ask: () =>
        injected({
          method: 'POST',
          url: API.login,
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          payload: 'not gzip',
        }),
      status: 400,
      field: '(body)',
      code: 'request.notDecompressed',
      zh: '无法按所给编码解压请求体',
    },
    {
      what: 'a path no route answers',
      ask: () => s.call('GET', '/central/1.0/no-such-route', { token: admin }),
      status: 404,
      code: 'route.notFound',
      zh: '找不到该地址',
    },
    {
      what: 'a door that is not there',
      ask: () => s.call('GET', `${API.doors}/2147480000`, { token: admin }),
      status: 404,
      code: 'record.notFound',
      zh: '找不到该门',
    },
    {
      what: 'a command to a door that is not there',
      ask: () => s.call('POST', `${API.doors}/2147480000/commands`, { token: admin, body: { command: 'unlock' } }),
      status: 404,
      code: 'record.notFound',
      zh: '找不到该门',
    },
    {
      what: "a simulated input event that names no input (the simulator's refusal names the field)",
      ask: () => s.call('POST', API.testSimulate, { token: admin, body: { kind: 'input.active' } }),
      status: 400,
      field: 'inputId',
      code: 'simulate.inputRequired',
      zh: '为必填项：哪个输入',
    },
    {
      what: 'a simulated floor request that names no floor',
      ask: async () => s.call('POST', API.testSimulate, { token: admin, body: { kind: 'elevator.floor', readerId: 1 } }),
      status: 400,
      field: 'floor',
      code: 'simulate.floorRequired',
      zh: '为必填项：哪一层',
    },
  ];
  for (const row of TABLE)
    it(`${row.what}: ${row.code}`, async () => {
      const zh = typeof row.zh === 'string' ? row.zh : row.zh();
      const a = await row.ask();
      expect(a.status).toBe(row.status);
      expect(unkeyed(a.body)).toEqual([]);
      if (row.field) {
        const v = (a.body.violations as Violation[]).find((x) => x.field === row.field)!;
        expect(v).toMatchObject({ code: row.code });
        expect(CJK.test(zh)).toBe(true);
        expect(field(v, 'zh-CN')).toBe(zh);
        expect(field(v, 'en')).toBe(v.message);
        // its English alone is no key: nothing finds the sentence again by its words
        expect(field({ field: v.field, message: v.message }, 'zh-CN')).toBe(v.message);
      } else {
        expect(a.body.code).toBe(row.code);
        expect(toast(a.body, 'zh-CN')).toBe(zh);
        expect(toast(a.body, 'en')).toBe(a.body.message);
        expect(saySentence({ message: a.body.message } as Sentence, 'zh-CN')).toBe(a.body.message);
      }
    });
});

describe('a reason the server gives, said in zh-CN by its key', () => {
  it('why backups cannot be taken here (a server started without BACKUP_DIR)', async () => {
    const r = await s.call('GET', API.backups, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ available: false, reasonCode: 'backup.noBackupDir', reasonValues: {} });
    expect(say(backupReason(r.body), 'zh-CN')).toBe('此服务器启动时没有指定保存备份的位置（BACKUP_DIR）');
    expect(say(backupReason(r.body), 'en')).toBe(r.body.reason);
  });
  it('a success message: a reset link asked for (the same answer whether or not the account exists)', async () => {
    const r = await s.call('POST', API.resetInit, { body: { username: 'nobody-at-all' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, messageCode: 'password.resetLinkSent', messageValues: {} });
    expect(say(messageOf(r.body), 'zh-CN')).toBe('如果该账户存在，重置链接已发送。');
    expect(say(messageOf(r.body), 'en')).toBe(r.body.message);
    expect(say(r.body.message, 'zh-CN')).toBe(r.body.message); // its English alone is no key
  });
});
