// Logical blocks (issue 12): "when this happens [while this schedule is open] then do that", against the real server
// and database. An input pulses an output (on, then off after its pulse time); a block only fires at its own input or
// door, while its schedule is open and while it is on; what a block does never starts another block, but the same
// event from an operator does; a refused declaration names its field; the manual pulse is a named action.
import { SimulatedClock } from 'xstate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, logicalBlocksResource, outputsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, hr: string, harbour: string;
let northwind: number;
const BLOCKS = logicalBlocksResource.api;
const clock = new SimulatedClock();

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [admin, hr, harbour] = await Promise.all(['admin', 'hr', 'harbour'].map((u) => s.login(u)));
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
  s.app.simulator.useClock(clock);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const idOf = async (table: string, name: string) =>
  Number((await s.db.query<{ id: number }>(`select id from ${table} where client_id = $1 and name = $2`, [northwind, name])).rows[0].id);
const trip = (inputId: number) => s.call('POST', API.testSimulate, { token: admin, body: { kind: 'input.active', inputId } });
/** Events after `after` at source `source` (the actions of blocks are settled first). */
async function eventsAt(source: string, after: number) {
  await s.app.logic.settled();
  return (
    await s.db.query<{ id: string; event_code: number; message: string }>(
      'select id, event_code, message from events where client_id = $1 and event_source_id = $2 and id > $3 order by id',
      [northwind, source, after],
    )
  ).rows;
}
const lastEventId = async () => Number((await s.db.query<{ id: string }>('select coalesce(max(id), 0)::text as id from events')).rows[0].id);

describe('logical blocks', () => {
  it('an input pulses an output: on at once, off after its pulse time, both naming the block; other inputs do nothing', async () => {
    const contact = await idOf('inputs', 'Loading Bay contact');
    const other = await idOf('inputs', 'Main Entrance contact');
    const sounder = await idOf('outputs', 'Server Room strike');
    const always = await idOf('schedules', 'Always');
    const created = await s.call('POST', BLOCKS, {
      token: admin,
      body: { name: 'Dock sounder', active: true, trigger: 'input.active', inputId: contact, scheduleId: always, action: 'pulse-output', outputId: sounder },
    });
    expect(created.status).toBe(201);

    let from = await lastEventId();
    await trip(other);
    expect(await eventsAt(`out-${sounder}`, from)).toEqual([]);
    await trip(contact);
    const on = await eventsAt(`out-${sounder}`, from);
    expect(on).toHaveLength(1);
    expect(on[0]).toMatchObject({ event_code: EVENT_CODES.outputActive });
    expect(on[0].message).toContain('pulsed by logical block Dock sounder for 5 s');
    from = Number(on[0].id);
    clock.increment(5_000);
    // the simulator's pulse timer writes the off event without anyone awaiting it: polled for (a 50 ms sleep stood here)
    await expect
      .poll(async () => (await eventsAt(`out-${sounder}`, from)).map((e) => e.event_code), { timeout: 10_000, interval: 20 })
      .toEqual([EVENT_CODES.outputIdle]);

    // turned off, it does nothing; the change reaches the running blocks without a restart
    const { id: _id, clientId: _c, createdAt: _a, ...row } = (await s.call('GET', `${BLOCKS}/${created.body.id}`, { token: admin })).body;
    const put = await s.call('PUT', `${BLOCKS}/${_id}`, { token: admin, body: { ...row, active: false } });
    expect(put.body.violations ?? []).toEqual([]);
    expect(put.status).toBe(200);
    from = await lastEventId();
    await trip(contact);
    expect(await eventsAt(`out-${sounder}`, from)).toEqual([]);
  });

  it('only while its schedule is open', async () => {
    const contact = await idOf('inputs', 'Roof Access contact');
    const light = await idOf('outputs', 'Roof Access strike');
    const never = Number(
      (await s.db.query<{ id: number }>(`insert into schedules (client_id, name, description) values ($1, 'Never', 'No windows') returning id`, [northwind]))
        .rows[0].id,
    );
    s.app.simulator.access.changed(northwind);
    const b = await s.call('POST', BLOCKS, {
      token: admin,
      body: { name: 'Closed rule', trigger: 'input.active', inputId: contact, scheduleId: never, action: 'pulse-output', outputId: light },
    });
    expect(b.status).toBe(201);
    const from = await lastEventId();
    await trip(contact);
    expect(await eventsAt(`out-${light}`, from)).toEqual([]);
  });

  it('what a block does never starts another block; the same event from an operator does', async () => {
    const contact = await idOf('inputs', 'Server Room contact');
    const door = await idOf('doors', 'Server Room');
    await s.call('POST', BLOCKS, {
      token: admin,
      body: { name: 'Open server room', trigger: 'input.active', inputId: contact, action: 'unlock-door', actionDoorId: door },
    });
    const alarm = await s.call('POST', BLOCKS, {
      token: admin,
      body: { name: 'Server room watch', trigger: 'door.unlocked', doorId: door, action: 'raise-alarm', alarmText: 'Server room unlocked' },
    });
    expect(alarm.status).toBe(201);

    let from = await lastEventId();
    await trip(contact);
    const moved = await eventsAt(`door-${door}`, from);
    expect(moved.map((e) => e.event_code)).toEqual([EVENT_CODES.doorUnlocked]);
    expect(moved[0].message).toContain('by logical block Open server room');
    expect((await s.db.query<{ status: string }>('select status from doors where id = $1', [door])).rows[0].status).toBe('unlocked');
    expect(await eventsAt(`logic-${alarm.body.id}`, from)).toEqual([]);

    // an operator locks and unlocks it: the watch raises its alarm, a priority-2 alarm with the block's words
    await s.call('POST', `${API.doors}/${door}/commands`, { token: admin, body: { command: 'lock' } });
    from = await lastEventId();
    expect((await s.call('POST', `${API.doors}/${door}/commands`, { token: admin, body: { command: 'unlock' } })).status).toBe(200);
    const raised = await eventsAt(`logic-${alarm.body.id}`, from);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ event_code: EVENT_CODES.logicAlarm });
    expect(raised[0].message).toMatch(/^Server room unlocked: Door unlocked/);
    expect((await s.db.query<{ priority: number; state: string }>('select priority, state from alarms where event_id = $1', [raised[0].id])).rows[0]).toEqual({
      priority: 2,
      state: 'raised',
    });
  });

  it('refuses a block without what its action needs, or naming another tenant’s output, field by field', async () => {
    const noOutput = await s.call('POST', BLOCKS, { token: admin, body: { name: 'Half a rule', trigger: 'door.forced', action: 'pulse-output' } });
    expect(noOutput.status).toBe(400);
    expect(noOutput.body.violations).toEqual([
      { field: 'outputId', message: 'is required to pulse an output', code: 'resource.logicalBlocks.rule.outputId', values: {} },
    ]);
    const noDoor = await s.call('POST', BLOCKS, { token: admin, body: { name: 'Half a rule', trigger: 'door.forced', action: 'lock-door' } });
    expect(noDoor.body.violations).toEqual([
      { field: 'actionDoorId', message: 'is required to move a door', code: 'resource.logicalBlocks.rule.actionDoorId', values: {} },
    ]);
    const theirs = Number((await s.db.query<{ id: number }>('select id from outputs where client_id <> $1 order by id limit 1', [northwind])).rows[0].id);
    const foreign = await s.call('POST', BLOCKS, {
      token: admin,
      body: { name: 'Half a rule', trigger: 'door.forced', action: 'pulse-output', outputId: theirs },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.violations.map((v: { field: string }) => v.field)).toEqual(['outputId']);
    const badTrigger = await s.call('POST', BLOCKS, { token: admin, body: { name: 'Half a rule', trigger: 'door.exploded', action: 'raise-alarm' } });
    expect(badTrigger.status).toBe(400);
    expect(badTrigger.body.violations.map((v: { field: string }) => v.field)).toEqual(['trigger']);
    expect(await s.count(`select 1 from logical_blocks where name = 'Half a rule'`)).toBe(0);
  });

  it('an output is pulsed by hand with the edit privilege, audited; another tenant’s is not found', async () => {
    const strike = await idOf('outputs', 'Main Entrance strike');
    const path = `${outputsResource.api}/${strike}/pulse`;
    expect((await s.call('POST', path, { token: hr })).status).toBe(403);
    expect((await s.call('POST', path, { token: harbour })).status).toBe(404);
    const from = await lastEventId();
    const done = await s.call('POST', path, { token: admin });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: strike, name: 'Main Entrance strike' });
    // the answer comes once the event is stored (no wait: the route did not answer before it)
    const on = await eventsAt(`out-${strike}`, from);
    expect(on.map((e) => e.event_code)).toEqual([EVENT_CODES.outputActive]);
    expect(on[0].message).toContain('pulsed by admin');
    const audit = await s.db.query<any>(`select action, after from audit_log where entity_id = $1 and action = 'pulse' order by id desc limit 1`, [
      String(strike),
    ]);
    expect(audit.rows[0]).toMatchObject({ action: 'pulse', after: { pulse: 'Main Entrance strike', seconds: 5 } });
  });
});
