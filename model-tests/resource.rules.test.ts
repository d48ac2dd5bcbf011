// The list and form rules of machines/resourceList.ts and resourceForm.ts written down apart from the machines: what a
// list screen accepts from a view (a page, a sort, filters, a selection), the query and the delete it sends, and the
// words a list or a form says when the server refuses. Each expected value is the rule itself (a table of inputs worked
// out by hand, the query the rule says a fetch gets), never a transition of the machine. The mutation run of
// 2026-12-03 (docs/TESTING.md, "Mutation score") showed them unchecked: the model test offers one bad value of each kind.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { PAGE_SIZE, type PageOf } from '../contract';
import {
  cleanFilters,
  createResourceListMachine,
  isValidFilters,
  isValidIds,
  isValidPage,
  isValidSort,
  resourceListMachine,
  type ListQueryInput,
} from '../machines/resourceList';
import { createResourceFormMachine, resourceFormMachine, violationsOf, type Acted, type ActInput, type ResourceFormEmitted } from '../machines/resourceForm';
import { createControls } from './harness';

describe('what a list screen accepts from a view', () => {
  it('a page is a whole number from 0', () => {
    for (const ok of [0, 1, 7, 10_000]) expect(isValidPage(ok), String(ok)).toBe(true);
    for (const bad of [-1, 0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1', null, undefined]) expect(isValidPage(bad), String(bad)).toBe(false);
  });
  it('a sort is a list of plain field names (a letter first, then letters, digits, _ or .), each asc or desc', () => {
    for (const ok of [
      [],
      [{ field: 'lastName', dir: 'asc' }],
      [{ field: 'a', dir: 'desc' }],
      [
        { field: 'zone.name_2', dir: 'asc' },
        { field: 'id', dir: 'desc' },
      ],
    ])
      expect(isValidSort(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of [
      null,
      'lastName',
      { field: 'lastName', dir: 'asc' },
      [null],
      [{ field: 'lastName' }],
      [{ field: 'lastName', dir: 'up' }],
      [{ field: 'lastName', dir: 'ASC' }],
      [{ field: '', dir: 'asc' }],
      [{ field: '2nd', dir: 'asc' }],
      [{ field: '_id', dir: 'asc' }],
      [{ field: 'last name', dir: 'asc' }],
      [{ field: 'x; drop', dir: 'asc' }],
      [
        { field: 'name', dir: 'asc' },
        { field: 'a-b', dir: 'asc' },
      ],
      [{ field: 3, dir: 'asc' }],
    ])
      expect(isValidSort(bad), JSON.stringify(bad)).toBe(false);
  });
  it('filters are an object of strings', () => {
    for (const ok of [{}, { q: 'ada' }, { q: '', status: 'active' }]) expect(isValidFilters(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of [null, undefined, 'q=ada', ['ada'], { q: 3 }, { q: 'ada', n: null }, { q: ['ada'] }])
      expect(isValidFilters(bad), JSON.stringify(bad)).toBe(false);
  });
  it('a selection is a list of row ids, whole numbers above 0', () => {
    for (const ok of [[], [1], [1, 2, 2, 99]]) expect(isValidIds(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of [null, 1, [0], [-1], [1.5], ['1'], [1, 0]]) expect(isValidIds(bad), JSON.stringify(bad)).toBe(false);
  });
  it('a filter left empty or blank is no filter: { q: "" } and {} are the same query', () => {
    expect(cleanFilters({})).toEqual({});
    expect(cleanFilters({ q: '', status: '  ', zone: 'North' })).toEqual({ zone: 'North' });
    expect(cleanFilters({ q: ' ada ' })).toEqual({ q: ' ada ' });
  });
});

/** A list screen on controllable actors: the test answers the fetch and the delete itself. */
function list(input: { resource: string; size?: number; sort?: Array<{ field: string; dir: 'asc' | 'desc' }>; filters?: Record<string, string> }) {
  const controls = createControls();
  const actor = createActor(resourceListMachine.provide({ actors: { fetchPage: controls.logic(), deleteMany: controls.logic() } }), { input }).start();
  return { controls, actor, s: () => actor.getSnapshot() };
}

describe('what a list screen sends and says', () => {
  it('before its first page is in, a list shows no rows, a total of 0 that is not a lower bound, nothing selected and no error', () => {
    const { s } = list({ resource: 'identities' });
    expect(s().value).toBe('loading');
    expect(s().context).toMatchObject({ items: [], total: 0, totalIsAtLeast: false, page: 0, selection: [], error: null });
  });
  it("a screen's list reads and deletes through the actors the screen gives it (the delete left out: none is provided)", async () => {
    const asked: unknown[] = [];
    const machine = createResourceListMachine({
      fetchPage: fromPromise(async ({ input }) => (asked.push(input), { items: [{ id: 8 }], total: 1, page: 0, size: PAGE_SIZE })),
      deleteMany: fromPromise(async ({ input }) => (asked.push(input), { deleted: 1 })),
    });
    const actor = createActor(machine, { input: { resource: 'zones' } }).start();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.items).toEqual([{ id: 8 }]);
    actor.send({ type: 'list.selectionChanged', ids: [8] });
    actor.send({ type: 'list.deleteRequested' });
    actor.send({ type: 'list.deleteConfirmed' });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked[1]).toEqual({ resource: 'zones', ids: [8] });
    const readOnly = createActor(
      createResourceListMachine({
        fetchPage: fromPromise<PageOf<unknown>, ListQueryInput>(async () => ({ items: [{ id: 8 }], total: 1, page: 0, size: PAGE_SIZE })),
      }),
      {
        input: { resource: 'zones' },
      },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    readOnly.send({ type: 'list.selectionChanged', ids: [8] });
    readOnly.send({ type: 'list.deleteRequested' });
    readOnly.send({ type: 'list.deleteConfirmed' });
    await new Promise((r) => setTimeout(r, 0));
    expect(readOnly.getSnapshot().context.error).toBe('deleteMany was not provided: pass it with machine.provide({ actors })');
  });
  it('the first read asks for page 0 of the size, sort and filters the screen opened with (a page of PAGE_SIZE unsorted, unfiltered by default)', async () => {
    const a = list({ resource: 'identities' });
    expect(a.controls.pending.get('fetchPage')?.input).toEqual({ resource: 'identities', page: 0, size: PAGE_SIZE, sort: [], filters: {} });
    const b = list({ resource: 'zones', size: 25, sort: [{ field: 'name', dir: 'asc' }], filters: { q: 'dock' } });
    expect(b.controls.pending.get('fetchPage')?.input).toEqual({
      resource: 'zones',
      page: 0,
      size: 25,
      sort: [{ field: 'name', dir: 'asc' }],
      filters: { q: 'dock' },
    });
  });
  it("shows the server's page: its rows, its total, and whether the total is only a lower bound", async () => {
    const { controls, s } = list({ resource: 'identities' });
    await controls.settle('fetchPage', 'done', { items: [{ id: 1 }], total: 12_000, totalIsAtLeast: true });
    expect(s().value).toBe('ready');
    expect(s().context).toMatchObject({ items: [{ id: 1 }], total: 12_000, totalIsAtLeast: true, error: null });
    // a count the server finished is no lower bound
    const again = list({ resource: 'identities' });
    await again.controls.settle('fetchPage', 'done', { items: [], total: 0 });
    expect(again.s().context.totalIsAtLeast).toBe(false);
  });
  it("a read refused says the server's words, or 'Could not load the list', and shows no rows", async () => {
    const a = list({ resource: 'identities' });
    await a.controls.settle('fetchPage', 'error', new Error('Server down'));
    expect(a.s().value).toBe('failed');
    expect(a.s().context).toMatchObject({ items: [], total: 0, totalIsAtLeast: false, error: 'Server down' });
    const b = list({ resource: 'identities' });
    await b.controls.settle('fetchPage', 'error', new Error('  '));
    expect(b.s().context.error).toBe('Could not load the list');
    // issue 48: refused with a sentence (its key and values, src/api/errors.ts ApiError.sentence): kept as it, so the
    // view says it by its key in the operator's language
    const said = { message: 'Access zone not found', code: 'record.notFound', values: { what: 'Access zone' } };
    const c = list({ resource: 'identities' });
    await c.controls.settle('fetchPage', 'error', Object.assign(new Error(said.message), { sentence: said }));
    expect(c.s().context.error).toEqual(said);
  });
  it('a page, a sort or filters read again with the new query; a bad one is refused and named', async () => {
    const { controls, actor, s } = list({ resource: 'identities' });
    await controls.settle('fetchPage', 'done', { items: [{ id: 1 }, { id: 2 }], total: 300 });
    actor.send({ type: 'list.selectionChanged', ids: [2] });
    actor.send({ type: 'list.pageChanged', page: 2 });
    // a new page keeps the selection (rows picked on page 0 stay picked); the query is the new page's
    expect(controls.pending.get('fetchPage')?.input).toEqual({ resource: 'identities', page: 2, size: PAGE_SIZE, sort: [], filters: {} });
    expect(s().context.selection).toEqual([2]);
    actor.send({ type: 'list.sorted', sort: [{ field: 'lastName', dir: 'desc' }] });
    expect(controls.pending.get('fetchPage')?.input).toEqual({
      resource: 'identities',
      page: 0,
      size: PAGE_SIZE,
      sort: [{ field: 'lastName', dir: 'desc' }],
      filters: {},
    });
    expect(s().context.selection).toEqual([]);
    actor.send({ type: 'list.filtered', filters: { q: 'ada', status: '' } });
    expect(controls.pending.get('fetchPage')?.input).toMatchObject({ page: 0, filters: { q: 'ada' } });
    for (const [event, type] of [
      [{ type: 'list.pageChanged', page: -1 }, 'list.pageChanged'],
      [{ type: 'list.sorted', sort: [{ field: '1x', dir: 'asc' }] }, 'list.sorted'],
      [{ type: 'list.filtered', filters: { q: 1 } }, 'list.filtered'],
    ] as const) {
      actor.send(event as never);
      expect(s().context.error).toBe(`Ignored an invalid ${type} request`);
    }
    await controls.settle('fetchPage', 'done', { items: [], total: 0 });
    actor.send({ type: 'list.selectionChanged', ids: [0] });
    expect(s().context.error).toBe('Ignored an invalid list.selectionChanged request');
    // a good request after a refused one clears the refusal
    actor.send({ type: 'list.pageChanged', page: 1 });
    expect(s().context.error).toBeNull();
  });
  it('a selection is kept once per row; a delete asks first, then deletes exactly the rows selected, and reads the page again with none', async () => {
    const { controls, actor, s } = list({ resource: 'visitors' });
    await controls.settle('fetchPage', 'done', { items: [{ id: 3 }, { id: 4 }], total: 2 });
    actor.send({ type: 'list.deleteRequested' });
    expect(s().value).toBe('ready'); // nothing selected: nothing to ask about
    actor.send({ type: 'list.selectionChanged', ids: [4, 3, 4] });
    expect(s().context.selection).toEqual([4, 3]);
    actor.send({ type: 'list.deleteRequested' });
    expect(s().value).toBe('confirmingDelete');
    expect(controls.pending.has('deleteMany')).toBe(false);
    actor.send({ type: 'list.deleteCancelled' });
    expect(s().value).toBe('ready');
    actor.send({ type: 'list.deleteRequested' });
    actor.send({ type: 'list.deleteConfirmed' });
    expect(controls.pending.get('deleteMany')?.input).toEqual({ resource: 'visitors', ids: [4, 3] });
    await controls.settle('deleteMany', 'done', { deleted: 2 });
    expect(s().value).toBe('loading');
    expect(s().context.selection).toEqual([]);
    expect(s().context.error).toBeNull();
  });
  it("a delete refused stays on the rows with the server's words, or 'Could not delete the selected rows', the selection kept", async () => {
    for (const [error, words] of [
      [new Error('Forbidden'), 'Forbidden'],
      [new Error(''), 'Could not delete the selected rows'],
    ] as const) {
      const { controls, actor, s } = list({ resource: 'visitors' });
      await controls.settle('fetchPage', 'done', { items: [{ id: 3 }], total: 1 });
      actor.send({ type: 'list.selectionChanged', ids: [3] });
      actor.send({ type: 'list.deleteRequested' });
      actor.send({ type: 'list.deleteConfirmed' });
      await controls.settle('deleteMany', 'error', error);
      expect(s().value).toBe('ready');
      expect(s().context.error).toBe(words);
      expect(s().context.selection).toEqual([3]);
    }
  });
});

describe('what a form says when the server refuses', () => {
  it("a refusal's violations are those that name a field and say what is wrong; anything else is no violation", () => {
    expect(violationsOf(null)).toEqual([]);
    expect(violationsOf('invalid')).toEqual([]);
    expect(violationsOf(new Error('Server down'))).toEqual([]);
    expect(violationsOf({ violations: 'employeeNo' })).toEqual([]);
    expect(
      violationsOf({
        violations: [{ field: 'employeeNo', message: 'has the wrong format' }, null, { field: 'x' }, { message: 'no field' }, { field: 2, message: 'm' }],
      }),
    ).toMatchObject([{ field: 'employeeNo', message: 'has the wrong format' }]);
  });

  function form(input: { id?: number }) {
    const controls = createControls();
    const emitted: ResourceFormEmitted[] = [];
    const actor = createActor(resourceFormMachine.provide({ actors: { load: controls.logic(), save: controls.logic(), act: controls.logic() } }), { input });
    actor.on('*', (e) => emitted.push(e as ResourceFormEmitted));
    actor.start();
    return { controls, actor, emitted, s: () => actor.getSnapshot() };
  }

  it('an id that is not a whole number above 0 is an add form; a record is read by its id', () => {
    for (const id of [0, -3, 1.5]) {
      const f = form({ id });
      expect(f.s().value, String(id)).toBe('editing');
      expect(f.s().context.id).toBeNull();
    }
    const f = form({ id: 5 });
    expect(f.s().value).toBe('loading');
    expect(f.controls.pending.get('load')?.input).toEqual({ id: 5 });
  });
  it("a record that cannot be read says the server's words or 'Could not load the record'; read again, the words go", async () => {
    const f = form({ id: 5 });
    await f.controls.settle('load', 'error', new Error(' '));
    expect(f.s().value).toBe('failed');
    expect(f.s().context.error).toBe('Could not load the record');
    f.actor.send({ type: 'form.reload' });
    expect(f.s().value).toBe('loading');
    expect(f.s().context.error).toBeNull();
    expect(f.controls.pending.get('load')?.input).toEqual({ id: 5 });
  });
  it("a save sends the record's id (none when adding) and the values; refused without violations it says the words or 'Could not save'", async () => {
    const add = form({});
    add.actor.send({ type: 'form.submit', values: { firstName: 'Ada' } });
    expect(add.controls.pending.get('save')?.input).toEqual({ id: null, values: { firstName: 'Ada' } });
    await add.controls.settle('save', 'error', new Error(''));
    expect(add.s().context).toMatchObject({ error: 'Could not save', violations: [] });
    add.actor.send({ type: 'form.reset' });
    expect(add.s().context.error).toBeNull();
    const edit = form({ id: 5 });
    await edit.controls.settle('load', 'done', { id: 5, firstName: 'Ada' });
    edit.actor.send({ type: 'form.submit', values: { firstName: 'Grace' } });
    expect(edit.controls.pending.get('save')?.input).toEqual({ id: 5, values: { firstName: 'Grace' } });
    await edit.controls.settle('save', 'done', { id: 5, shown: { apiKey: 'k' } });
    expect(edit.emitted.filter((e) => e.type === 'form.saved')).toEqual([{ type: 'form.saved', id: 5, shown: { apiKey: 'k' } }]);
  });
  it("an action sends the record's id, the action and its input; refused, it says the violations, or the words, or 'Could not do that'", async () => {
    const f = form({ id: 5 });
    await f.controls.settle('load', 'done', { id: 5, status: 'pending', updatedAt: 't1' });
    f.actor.send({ type: 'form.act', action: 'decline', input: { reason: 'Closed' } });
    expect(f.controls.pending.get('act')?.input).toEqual({ id: 5, action: 'decline', input: { reason: 'Closed' } });
    await f.controls.settle('act', 'error', new Error('   '));
    expect(f.s().context).toMatchObject({ error: 'Could not do that', violations: [] });
    f.actor.send({ type: 'form.act', action: 'decline', input: {} });
    await f.controls.settle('act', 'error', Object.assign(new Error('invalid'), { violations: [{ field: 'reason', message: 'is required' }] }));
    expect(f.s().context).toMatchObject({ error: null, violations: [{ field: 'reason', message: 'is required' }] });
    f.actor.send({ type: 'form.act', action: 'approve', input: {} });
    expect(f.s().context).toMatchObject({ error: null, violations: [], action: 'approve' });
    // answered, the record shown is the row as the action left it
    await f.controls.settle('act', 'done', { row: { id: 5, status: 'approved', updatedAt: 't2' } });
    expect(f.s().context.values).toEqual({ id: 5, status: 'approved', updatedAt: 't2' });
    expect(f.emitted.filter((e) => e.type === 'form.acted')).toEqual([{ type: 'form.acted', action: 'approve' }]);
  });
  it("a screen's form loads, saves and acts through the actors the screen gives it (those left out: none is provided)", async () => {
    const calls: string[] = [];
    const machine = createResourceFormMachine({
      load: fromPromise<unknown, { id: number }>(async () => (calls.push('load'), { id: 5, status: 'pending' })),
      save: fromPromise(async () => (calls.push('save'), { id: 5 })),
      act: fromPromise<Acted, ActInput>(async () => (calls.push('act'), { row: { id: 5, status: 'approved' } })),
    });
    const actor = createActor(machine, { input: { id: 5 } }).start();
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'form.act', action: 'approve', input: {} });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'form.submit', values: { status: 'x' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual(['load', 'act', 'save']);
    expect(actor.getSnapshot().value).toBe('saved');
    const saveOnly = createActor(createResourceFormMachine({ save: fromPromise(async () => ({ id: 5 })) }), { input: { id: 5 } }).start();
    await new Promise((r) => setTimeout(r, 0));
    expect(saveOnly.getSnapshot().context.error).toBe('load was not provided: pass it with machine.provide({ actors })');
  });
  it('a change notice reads the record again by its id; a read that fails leaves the form as it was', async () => {
    const f = form({ id: 5 });
    const record = { id: 5, status: 'pending', updatedAt: 't1' };
    await f.controls.settle('load', 'done', record);
    f.actor.send({ type: 'form.refresh' });
    expect(f.controls.pending.get('refresh')?.input).toEqual({ id: 5 });
    await f.controls.settle('refresh', 'error', new Error('Server down'));
    expect(f.s().value).toBe('editing');
    expect(f.s().context).toMatchObject({ values: record, error: null });
    // a record without updatedAt read again without one: nobody saved it meanwhile, so it is shown
    const g = form({ id: 6 });
    await g.controls.settle('load', 'done', { id: 6, status: 'a' });
    g.actor.send({ type: 'form.refresh' });
    await g.controls.settle('refresh', 'done', { id: 6, status: 'b' });
    expect(g.s().context.values).toEqual({ id: 6, status: 'b' });
  });
});
