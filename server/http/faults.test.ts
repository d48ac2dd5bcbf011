// Faults are visible (issue 13): a database that refuses writes answers 503 with a plain message, is logged,
// and turns /api/health to 503; bodies the parser or the validator cannot take are 400s, never 500s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { object, unknown } from 'superstruct';
import { validate } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
const logged: string[] = [];
beforeAll(async () => {
  s = await startTestServer({
    logger: {
      stream: {
        write: (line: string) => {
          logged.push(line);
        },
      },
    },
  });
});
afterAll(async () => {
  await s.close();
});

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const registration = { username: 'newbie', name: 'New Bie', email: 'newbie@example.com' };

describe('bodies the parser refuses', () => {
  it('answers a 10,000-level nested array on the sign-in route with 400 and a violation, not 500', async () => {
    const r = await s.call('POST', '/idp/1.0/login', { raw: `{"username":${nested(10_000)},"password":"x"}` });
    expect(r.status).toBe(400);
    expect(r.body.violations).toEqual([{ field: '(body)', message: 'is nested more than 64 levels deep', code: 'json.isTooDeep', values: { max: 64 } }]);
  });

  it('still takes brackets inside strings as text, not as nesting', async () => {
    const r = await s.call('POST', '/idp/1.0/login', { raw: JSON.stringify({ username: nested(40), password: 'x' }) });
    expect(r.status).toBe(401);
  });

  it('names a __proto__ key as the problem instead of calling the body invalid JSON', async () => {
    const r = await s.call('POST', '/idp/1.0/registration-requests', { raw: '{"__proto__":{"admin":true},"username":"a","name":"b","email":"a@b.co"}' });
    expect(r.status).toBe(400);
    expect(r.body.violations).toEqual([
      { field: '(body)', message: 'must not contain a key named "__proto__"', code: 'json.hasForbiddenKey', values: { key: '__proto__' } },
    ]);
    expect(r.body).toMatchObject({ code: 'json.forbiddenKey', values: { key: '__proto__' } });
    expect(await s.count('select 1 from registration_requests where username = $1', ['a'])).toBe(0);
  });

  it('says where malformed JSON breaks', async () => {
    const r = await s.call('POST', '/idp/1.0/login', { raw: '{"username": "a",' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^The body is not valid JSON/);
    expect(r.body.violations[0].field).toBe('(body)');
  });

  it('turns a validator that cannot walk a value into a violation, not a crash', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    const r = validate({ x: deep }, object({ x: object({ a: unknown() }) }));
    expect(r.ok).toBe(true); // unknown() does not walk it
    const walked = validate(
      deep,
      (function struct(): any {
        return object({ a: unknown() });
      })(),
    );
    expect(walked.ok).toBe(true);
    const crash = validate({}, {
      create: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    } as any);
    expect(crash).toEqual({
      ok: false,
      violations: [{ field: '(body)', message: 'could not be checked: it is nested too deeply or too large', code: 'value.uncheckable', values: {} }],
    });
  });
});

describe('a database that refuses writes', () => {
  it('answers 503 with a plain message, logs it, and reports it in /api/health until it takes writes again', async () => {
    expect(await s.call('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok', writable: true } });
    // what PostgreSQL says when the disk is full, raised by the tables the request and the health check write
    await s.db.exec(`
      create or replace function simulate_disk_full() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file "base/1/16384": No space left on device' using errcode = '53100'; end $$;
      create trigger disk_full before insert or update on registration_requests for each row execute function simulate_disk_full();
      create trigger disk_full before insert or update on health_probe for each row execute function simulate_disk_full();`);
    try {
      const r = await s.call('POST', '/idp/1.0/registration-requests', { body: registration });
      expect(r.status).toBe(503);
      expect(r.body.message).toMatch(/cannot take changes right now/);
      expect(logged.some((l) => l.includes('database refused the request') && l.includes('No space left on device'))).toBe(true);
      const health = await s.call('GET', '/api/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'unavailable', writable: false });
      expect(health.body.problem).toMatch(/No space left on device/);
    } finally {
      await s.db.exec('drop trigger disk_full on registration_requests; drop trigger disk_full on health_probe;');
    }
    expect((await s.call('POST', '/idp/1.0/registration-requests', { body: registration })).status).toBe(201);
    expect((await s.call('GET', '/api/health')).status).toBe(200);
  });

  it('answers a deadlock or a serialization failure (another request at the same moment) 503 with Retry-After, not 500', async () => {
    for (const code of ['40P01', '40001']) {
      await s.db.exec(`
        create or replace function simulate_conflict() returns trigger language plpgsql as $$
        begin raise exception 'deadlock detected (test)' using errcode = '${code}'; end $$;
        create trigger conflict before insert on registration_requests for each row execute function simulate_conflict();`);
      try {
        const r = await fetch(`${s.base}/idp/1.0/registration-requests`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...registration, username: `busy${code}` }),
        });
        expect(r.status, code).toBe(503);
        expect(r.headers.get('retry-after')).toBe('1');
        expect(await r.json()).toMatchObject({ code: 'server.conflictSendAgain' });
      } finally {
        await s.db.exec('drop trigger conflict on registration_requests');
      }
      // sent again: it goes through
      expect((await s.call('POST', '/idp/1.0/registration-requests', { body: { ...registration, username: `busy${code}` } })).status).toBe(201);
    }
  });

  it('logs an unexpected server error with its route', async () => {
    await s.db.exec(`
      create or replace function simulate_bug() returns trigger language plpgsql as $$
      begin raise exception 'division by zero in a trigger' using errcode = '22012'; end $$;
      create trigger bug before insert on registration_requests for each row execute function simulate_bug();`);
    try {
      const r = await s.call('POST', '/idp/1.0/registration-requests', { body: { ...registration, username: 'other' } });
      expect(r.status).toBe(500);
      const line = logged.find((l) => l.includes('division by zero in a trigger'));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ level: 50, msg: 'request failed', route: '/idp/1.0/registration-requests', method: 'POST' });
    } finally {
      await s.db.exec('drop trigger bug on registration_requests');
    }
  });
});
