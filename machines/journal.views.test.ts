// Views' own actors in a replay (issue 11): a list and a form, recorded in the journal as the console records them
// (src/app/useViewActor.ts: their own root, observed with rootId '#view'), are re-run by replayJournal from their
// recorded input and events, and a changed state is a divergence on its line.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type InspectionEvent } from 'xstate';
import { createJournal, replayImpl, replayJournal } from './journal';
import { createResourceFormMachine } from './resourceForm';
import { createResourceListMachine } from './resourceList';
import { createGatehouseSystem } from './system';

const page = (n: number) => ({ items: [{ id: n }], total: 40, page: n, size: 20 });

async function recordedSession() {
  const j = createJournal();
  const root = createGatehouseSystem(replayImpl(), { inspect: j.inspect }).start();
  const view = (e: InspectionEvent) => j.inspect({ ...e, rootId: '#view' } as InspectionEvent);
  // a list: loads, pages, sorts (each fetch answered by the network, here a promise)
  const listLogic = createResourceListMachine({ fetchPage: fromPromise(async ({ input }) => page((input as { page: number }).page)) });
  const list = createActor(listLogic, { id: 'list:identities', input: { resource: 'identities', sort: [{ field: 'lastName', dir: 'asc' }] }, inspect: view }).start();
  await waitFor(list, (s) => s.matches('ready'));
  list.send({ type: 'list.pageChanged', page: 1 });
  await waitFor(list, (s) => s.matches('ready') && s.context.page === 1);
  list.send({ type: 'list.pageChanged', page: -3 }); // refused at the edge: an error in context, the same state
  list.send({ type: 'list.selectionChanged', ids: [1] });
  list.stop();
  // the same list opened again later: a new actor of the same label
  const again = createActor(listLogic, { id: 'list:identities', input: { resource: 'identities' }, inspect: view }).start();
  await waitFor(again, (s) => s.matches('ready'));
  again.stop();
  // a form: loads a record, a save refused with a violation, then saved
  let saves = 0;
  const formLogic = createResourceFormMachine({
    load: fromPromise<unknown, { id: number }>(async () => ({ id: 7, firstName: 'Ann' })),
    save: fromPromise(async () => {
      if (saves++ === 0) throw Object.assign(new Error('Validation failed'), { status: 400, violations: [{ field: 'firstName', message: 'is required' }] });
      return { id: 7 };
    }),
  });
  const form = createActor(formLogic, { id: 'form:identities', input: { id: 7, resource: 'identities' }, inspect: view }).start();
  await waitFor(form, (s) => s.matches('editing'));
  form.send({ type: 'form.submit', values: { firstName: '' } } as never);
  await waitFor(form, (s) => !s.hasTag('busy'));
  form.send({ type: 'form.submit', values: { firstName: 'Ann' } } as never);
  await waitFor(form, (s) => !s.hasTag('busy') && saves === 2);
  form.stop();
  root.stop();
  return j.toNdjson();
}

describe('a journal with lists and forms', () => {
  it('is re-run by the replay: each view actor from its recorded input, every state matching', async () => {
    const nd = await recordedSession();
    const r = replayJournal(nd);
    expect(r.ok ? 'ok' : r.message).toBe('ok');
    if (!r.ok) return;
    const of = (actor: string) => r.steps.filter((s) => s.actor === actor).map((s) => [s.event, s.replayed]);
    const list = of('list:identities');
    expect(list.filter(([e]) => e === 'xstate.init')).toHaveLength(2); // opened twice
    expect(list).toContainEqual(['list.pageChanged', 'loading']);
    expect(list.some(([e, s]) => String(e).startsWith('xstate.done.actor') && s === 'ready')).toBe(true);
    const form = of('form:identities');
    expect(form[0]).toEqual(['xstate.init', 'loading']);
    expect(form.map(([e]) => e)).toContain('form.submit');
    expect(r.steps.every((s) => s.matches)).toBe(true);
  });

  it('diverges on the line where a view\'s recorded state differs from the replayed one', async () => {
    const lines = (await recordedSession()).trimEnd().split('\n');
    const at = lines.findIndex((l) => l.includes('"actor":"list:identities"') && l.includes('"list.selectionChanged"'));
    expect(at).toBeGreaterThan(0);
    lines[at] = lines[at].replace(/"state":"[a-z]+"/, '"state":"loading"');
    const r = replayJournal(lines.join('\n'));
    expect(r.ok).toBe(false);
    if (r.ok || r.kind !== 'diverged') return;
    expect(r.line).toBe(at + 1);
    expect(r.message).toContain('list:identities after list.selectionChanged');
  });
});
