// Views' own actors in a replay (issue 11): a list and a form, recorded in the journal as the console records them
// (src/app/useViewActor.ts: children of the system's `views`, opened and closed by their view), are re-run by
// replayJournal from their recorded input and events, and a changed state is a divergence on its line.
import { describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyActorLogic, type AnyActorRef } from 'xstate';
import { createJournal, replayImpl, replayJournal } from './journal';
import { createResourceFormMachine } from './resourceForm';
import { createResourceListMachine } from './resourceList';
import { createGatehouseSystem } from './system';

const page = (n: number) => ({ items: [{ id: n }], total: 40, page: n, size: 20 });

async function recordedSession() {
  const j = createJournal();
  // the browser's way (src/system/browser.ts openViewActor): the view brings its logic, `views` spawns it
  const logics = new Map<string, AnyActorLogic>();
  const root = createGatehouseSystem({ ...replayImpl(), views: { resolve: (id) => logics.get(id) } }, { inspect: j.inspect }).start();
  const views = root.system.get('views') as AnyActorRef;
  const open = (logic: AnyActorLogic, id: string, input: unknown) => {
    logics.set(id, logic);
    views.send({ type: 'view.open', id, input });
    return root.system.get(id) as AnyActorRef;
  };
  const close = (id: string) => views.send({ type: 'view.close', id });
  // a list: loads, pages, sorts (each fetch answered by the network, here a promise)
  const listLogic = createResourceListMachine({ fetchPage: fromPromise(async ({ input }) => page((input as { page: number }).page)) });
  const list = open(listLogic, 'list:identities#1', { resource: 'identities', sort: [{ field: 'lastName', dir: 'asc' }] });
  await waitFor(list, (s) => s.matches('ready'));
  list.send({ type: 'list.pageChanged', page: 1 });
  await waitFor(list, (s) => s.matches('ready') && s.context.page === 1);
  list.send({ type: 'list.pageChanged', page: -3 }); // refused at the edge: an error in context, the same state
  list.send({ type: 'list.selectionChanged', ids: [1] });
  close('list:identities#1');
  // the same list opened again later: a new actor of the same label
  const again = open(listLogic, 'list:identities#2', { resource: 'identities' });
  await waitFor(again, (s) => s.matches('ready'));
  close('list:identities#2');
  // a form: loads a record, a save refused with a violation, then saved
  let saves = 0;
  const formLogic = createResourceFormMachine({
    load: fromPromise<unknown, { id: number }>(async () => ({ id: 7, firstName: 'Ann' })),
    save: fromPromise(async () => {
      if (saves++ === 0) throw Object.assign(new Error('Validation failed'), { status: 400, violations: [{ field: 'firstName', message: 'is required' }] });
      return { id: 7 };
    }),
  });
  const form = open(formLogic, 'form:identities#3', { id: 7, resource: 'identities' });
  await waitFor(form, (s) => s.matches('editing'));
  form.send({ type: 'form.submit', values: { firstName: '' } } as never);
  await waitFor(form, (s) => !s.hasTag('busy'));
  form.send({ type: 'form.submit', values: { firstName: 'Ann' } } as never);
  await waitFor(form, (s) => !s.hasTag('busy') && saves === 2);
  close('form:identities#3');
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
    const list = [...of('list:identities#1'), ...of('list:identities#2')];
    expect(list.filter(([e]) => e === 'xstate.init')).toHaveLength(2); // opened twice
    expect(of('views').map(([e]) => e)).toEqual(['xstate.init', 'view.open', 'view.close', 'view.open', 'view.close', 'view.open', 'view.close']);
    expect(list).toContainEqual(['list.pageChanged', 'loading']);
    expect(list.some(([e, s]) => String(e).startsWith('xstate.done.actor') && s === 'ready')).toBe(true);
    const form = of('form:identities#3');
    expect(form[0]).toEqual(['xstate.init', 'loading']);
    expect(form.map(([e]) => e)).toContain('form.submit');
    expect(r.steps.every((s) => s.matches)).toBe(true);
  });

  it("diverges on the line where a view's recorded state differs from the replayed one", async () => {
    const lines = (await recordedSession()).trimEnd().split('\n');
    const at = lines.findIndex((l) => l.includes('"actor":"list:identities#1"') && l.includes('"list.selectionChanged"'));
    expect(at).toBeGreaterThan(0);
    lines[at] = lines[at].replace(/"state":"[a-z]+"/, '"state":"loading"');
    const r = replayJournal(lines.join('\n'));
    expect(r.ok).toBe(false);
    if (r.ok || r.kind !== 'diverged') return;
    expect(r.line).toBe(at + 1);
    expect(r.message).toContain('list:identities#1 after list.selectionChanged');
  });
});
