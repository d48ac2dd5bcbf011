// Model-based tests of the generic list and form machines, with controllable fetch/delete/load/save actors.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { PAGE_SIZE } from '../contract';
import { resourceListMachine, type ResourceListSnapshot } from '../machines/resourceList';
import { resourceFormMachine, type ResourceFormEmitted, type ResourceFormSnapshot } from '../machines/resourceForm';
import { invariants as listInvariants } from '../machines/resourceList.invariants';
import { invariants as formInvariants } from '../machines/resourceForm.invariants';
import { drive, edgePaths, onDemand, expectOracle, onlyInvoked } from './harness';

describe('resource list machine model', () => {
  const page = { items: [{ id: 1 }, { id: 2 }], total: 2, page: 0, size: PAGE_SIZE };
  const events = [
    { type: 'xstate.done.actor.fetchPage', output: page },
    { type: 'xstate.error.actor.fetchPage', error: new Error('Server down') },
    { type: 'list.pageChanged', page: 1 },
    { type: 'list.pageChanged', page: -1 },
    { type: 'list.sorted', sort: [{ field: 'lastName', dir: 'desc' }] },
    { type: 'list.sorted', sort: [{ field: 'x; drop', dir: 'up' }] },
    { type: 'list.filtered', filters: { q: 'ada', status: '' } },
    { type: 'list.filtered', filters: { q: 3 } },
    { type: 'list.refresh' },
    { type: 'list.selectionChanged', ids: [1, 2] },
    { type: 'list.selectionChanged', ids: [0] },
    { type: 'list.selectionChanged', ids: [] },
    { type: 'list.deleteRequested' },
    { type: 'list.deleteConfirmed' },
    { type: 'list.deleteCancelled' },
    { type: 'xstate.done.actor.deleteMany', output: { deleted: 2 } },
    { type: 'xstate.error.actor.deleteMany', error: new Error('Forbidden') },
  ] as any[];
  const input = { resource: 'identities' };
  const serialize = (s: ResourceListSnapshot) =>
    JSON.stringify([s.value, s.context.page, s.context.sort.length, s.context.selection.length, s.context.error !== null]);
  const model = new TestModel(resourceListMachine as any, { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 50_000, input });
  const paths = onDemand(() => edgePaths(model, resourceListMachine, serialize, [], input));

  it('keeps the invariants of its states (resourceList.invariants.ts) and the list rules at every step of the generated paths', () => {
    const query = (s: ResourceListSnapshot) => JSON.stringify([s.context.page, s.context.sort, s.context.filters, s.context.selection]);
    const invalid = (e: any) =>
      (e.type === 'list.pageChanged' && e.page < 0) ||
      (e.type === 'list.sorted' && e.sort[0].dir === 'up') ||
      (e.type === 'list.filtered' && typeof e.filters.q !== 'string') ||
      (e.type === 'list.selectionChanged' && e.ids.includes(0));
    expectOracle(
      paths(),
      {
        'a new sort or filter reads again from page 0 with nothing selected': ({ event, after }) =>
          (event.type === 'list.sorted' || event.type === 'list.filtered') && !invalid(event) && after.matches('loading')
            ? after.context.page === 0 && after.context.selection.length === 0
            : undefined,
        'a request the list cannot take changes nothing of the query and says it was ignored': ({ before, event, after }) =>
          invalid(event) &&
          (event.type === 'list.selectionChanged' ? before.matches('ready') : !before.matches('confirmingDelete') && !before.matches('deleting'))
            ? query(after) === query(before) && /^Ignored an invalid /.test(typeof after.context.error === 'string' ? after.context.error : '')
            : undefined,
        // what a screen sends after a command of its own changed rows (a key issued, an operator disabled)
        'a refresh reads the same page again, with the same query and selection': ({ before, event, after }) =>
          event.type === 'list.refresh' && !before.matches('confirmingDelete') && !before.matches('deleting')
            ? after.matches('loading') && query(after) === query(before) && 'fetchPage' in after.children
            : undefined,
        'a delete done reads the page again with nothing selected': ({ before, event, after }) =>
          event.type === 'xstate.done.actor.deleteMany' && before.matches('deleting')
            ? after.matches('loading') && after.context.selection.length === 0
            : undefined,
      },
      9,
      listInvariants,
    );
  });
  it('reaches loading, ready, confirmingDelete, deleting and failed', () => {
    const values = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    for (const v of ['loading', 'ready', 'confirmingDelete', 'deleting', 'failed']) expect(values).toContain(JSON.stringify(v));
  });
  it(`on the real actor along every generated path: the fetch gets the query the list holds`, async () => {
    const met = { 'a filter read': 0 };
    for (const p of paths())
      await drive(model, resourceListMachine, input, events, p, ({ controls, event }) => {
        // the fetch sees the query the model holds: page, size, sort and cleaned filters
        if (event.type === 'list.filtered' && event.filters.q === 'ada' && controls.pending.has('fetchPage')) {
          met['a filter read']++;
          expect(controls.pending.get('fetchPage')!.input).toMatchObject({ filters: { q: 'ada' }, page: 0, size: PAGE_SIZE });
        }
      });
    // each conditional check above met its case at least once (a loop that met none would have asserted nothing)
    expect(Object.entries(met).filter(([, n]) => n === 0)).toEqual([]);
  });
});

describe('resource form machine model', () => {
  const events = [
    { type: 'xstate.done.actor.load', output: { id: 5, firstName: 'Ada', updatedAt: 't1' } },
    { type: 'xstate.error.actor.load', error: new Error('Not found') },
    { type: 'form.reload' },
    { type: 'form.submit', values: { firstName: 'Ada' } },
    { type: 'form.reset' },
    { type: 'xstate.done.actor.save', output: { id: 5 } },
    {
      type: 'xstate.error.actor.save',
      error: Object.assign(new Error('invalid'), { status: 400, violations: [{ field: 'employeeNo', message: 'has the wrong format' }] }),
    },
    { type: 'xstate.error.actor.save', error: new Error('Server down') },
    { type: 'form.act', action: 'decline', input: { reason: 'Closed' } },
    { type: 'xstate.done.actor.act', output: { row: { id: 5, status: 'declined' } } },
    // issue 47: an action that answers a value shown once (a controller's new edge key), apart from the row
    { type: 'xstate.done.actor.act', output: { row: { id: 5, status: 'keyed' }, shown: { apiKey: 'gh_once' } } },
    { type: 'xstate.error.actor.act', error: Object.assign(new Error('invalid'), { status: 400, violations: [{ field: 'reason', message: 'is required' }] }) },
    { type: 'xstate.error.actor.act', error: new Error('This visit request is approved: decline is no longer possible.') },
    // issue 50: the record's change notice; read again, as the server derived it (same updatedAt) or saved by someone (another)
    { type: 'form.refresh' },
    { type: 'xstate.done.actor.refresh', output: { id: 5, firstName: 'Ada', status: 'installed', updatedAt: 't1' } },
    { type: 'xstate.done.actor.refresh', output: { id: 5, firstName: 'Grace', status: 'edited', updatedAt: 't2' } },
    { type: 'xstate.error.actor.refresh', error: new Error('Server down') },
  ] as any[];
  const serialize = (s: ResourceFormSnapshot) =>
    JSON.stringify([
      s.value,
      s.context.id,
      s.context.violations.length,
      s.context.error !== null,
      s.context.values !== null,
      (s.context.values as { status?: string } | null)?.status ?? null,
    ]);

  for (const input of [{}, { id: 5 }]) {
    const model = new TestModel(resourceFormMachine as any, { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 50_000, input });
    const paths = onDemand(() => edgePaths(model, resourceFormMachine, serialize, [], input));
    it(`keeps the invariants of its states (resourceForm.invariants.ts) and the form rules at every step of the generated paths (input ${JSON.stringify(input)})`, () => {
      expectOracle(
        paths(),
        {
          'a save answered is the saved form, with the id the server gave': ({ before, event, after }) =>
            event.type === 'xstate.done.actor.save' && before.matches('saving') ? after.matches('saved') && after.context.id === event.output.id : undefined,
          'a save refused with violations keeps the form open with them, field by field': ({ before, event, after }) =>
            event.type === 'xstate.error.actor.save' && event.error.violations && before.matches('saving')
              ? after.matches('editing') && JSON.stringify(after.context.violations) === JSON.stringify(event.error.violations)
              : undefined,
          'a submit keeps the values it sends, and a save answered still has them (a form that stays open resets to them)': ({ before, event, after }) =>
            event.type === 'form.submit' && after.matches('saving')
              ? JSON.stringify(after.context.sent) === JSON.stringify(event.values)
              : event.type === 'xstate.done.actor.save' && before.matches('saving')
                ? after.context.sent === before.context.sent
                : undefined,
        },
        11,
        formInvariants,
      );
    });
    it(`reaches saved and editing with violations (input ${JSON.stringify(input)})`, () => {
      expect(paths().some((p) => p.path.state.matches('saved'))).toBe(true);
      expect(paths().some((p) => p.path.state.matches('editing') && p.path.state.context.violations.length > 0)).toBe(true);
      // a record action runs only on a record loaded from the server, never on an add form's values
      const acting = paths().filter((p) => p.path.state.matches('acting'));
      expect(acting.length).toBeGreaterThan(0);
      for (const p of acting) expect(p.path.state.context.id !== null && p.path.state.context.values !== null).toBe(true);
      // a change notice reads a loaded record again, quietly (never an add form's, never with the busy tag)
      const refreshing = paths().filter((p) => p.path.state.matches('refreshing'));
      if (input.id) expect(refreshing.length).toBeGreaterThan(0);
      for (const p of refreshing) expect(p.path.state.context.values !== null && !p.path.state.hasTag('busy')).toBe(true);
      // a saved form may read its record again (a tenant's settings stay open after a save)
      expect(paths().some((p) => p.path.steps.some((st, i) => st.state.matches('saved') && p.path.steps[i + 1]?.state.matches('loading')))).toBe(true);
    });
    it(`on the real actor along every generated path (input ${JSON.stringify(input)}): saved and acted are emitted exactly when the save or the action answers`, async () => {
      const met: Record<string, number> = {
        'a save answered': 0,
        'an action answered': 0,
        'a value shown once': 0,
        ...(input.id ? { 'a record read again': 0 } : {}),
      };
      for (const p of paths())
        await drive(model, resourceFormMachine, input, events, p, ({ emitted, event, before }, step) => {
          // a record read again replaces the one shown only when nobody saved it meanwhile (the updatedAt the edits
          // rest on); one saved by someone else is left for the save's conflict (409) to tell
          if (event.type === 'xstate.done.actor.refresh' && before?.matches('refreshing')) {
            met['a record read again'] = (met['a record read again'] ?? 0) + 1;
            const same = (before.context.values as { updatedAt?: string } | null)?.updatedAt === event.output.updatedAt;
            if (same) expect(p.path.steps[step].state.context.values).toEqual(event.output);
            else expect(p.path.steps[step].state.context.values).toBe(before.context.values);
          }
          const out = emitted.splice(0) as ResourceFormEmitted[];
          const saved = out.filter((e) => e.type === 'form.saved');
          const savedNow = event.type === 'xstate.done.actor.save' && before?.matches('saving');
          if (savedNow) met['a save answered']++;
          expect(saved).toEqual(savedNow ? [{ type: 'form.saved', id: 5 }] : []);
          // the action's answer is the record shown, and the view hears which action was done
          const actedNow = event.type === 'xstate.done.actor.act' && before?.matches('acting');
          if (actedNow) met['an action answered']++;
          const shown = event.type === 'xstate.done.actor.act' ? event.output.shown : undefined;
          expect(out.filter((e) => e.type === 'form.acted')).toEqual(
            actedNow ? [shown ? { type: 'form.acted', action: 'decline', shown } : { type: 'form.acted', action: 'decline' }] : [],
          );
          if (actedNow && shown) met['a value shown once']++;
          // a value shown once never enters the context (the journal records contexts)
          expect(JSON.stringify(p.path.steps[step]?.state.context ?? null)).not.toContain('gh_once');
        });
      // each conditional check above met its case at least once (a loop that met none would have asserted nothing)
      expect(Object.entries(met).filter(([, n]) => n === 0)).toEqual([]);
    });
  }
});
