// Model-based test of the threat level panel (read, set, lower, change notices, one
// command at a time, the answer emitted for the toast; a holder of door control over some sites only — the doors
// screen's panel — sets for those sites and never for the whole client, nor changes a level that covers more); every
// edge on the real machine with controllable REST actors. The generic one-answer read: model-tests/reading.model.test.ts.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { threatLevelMachine, selectThreatMayChange, selectThreatRunning, type ThreatLevelSnapshot, type ThreatRead } from '../machines/threatLevel';
import { drive, edgePaths, onDemand, expectOracle, onlyInvoked, type StepProperties } from './harness';

const NONE = { level: null, divisionId: null, divisionName: null, setAt: null, setBy: null, until: null };
const LOCKED = {
  level: { id: 4, name: 'Lockout', rank: 9, mode: 'locked' },
  divisionId: null,
  divisionName: null,
  setAt: '2026-11-25T08:00:00Z',
  setBy: 'admin',
  until: null,
};
const READ: ThreatRead = { current: NONE, levels: [{ id: 4, name: 'Lockout', rank: 9, mode: 'locked' }], divisions: [{ id: 1, name: 'HQ' }] };
/** the choices of an operator who controls the doors of one site only, while the whole client's level is in force */
const SITE: ThreatRead = { current: LOCKED, levels: READ.levels, divisions: [{ id: 2, name: 'Warehouse' }], wholeClient: false };
const SITE_NONE: ThreatRead = { ...SITE, current: NONE };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** The panel's rules as properties of each step, written from issue 12 (not from the machine's transitions). */
const properties: StepProperties<ThreatLevelSnapshot> = {
  "a command's answer is the level in force shown at once, and read again": ({ before, after, event }) =>
    event.type === 'xstate.done.actor.command' && before.matches('commanding')
      ? same(after.context.current, event.output) && after.matches('reading')
      : undefined,
  'a refused command says why and leaves the level shown as it was': ({ before, after, event }) =>
    event.type === 'xstate.error.actor.command' && before.matches('commanding')
      ? after.context.error !== null && after.context.current === before.context.current && after.matches('idle')
      : undefined,
  'a read shows the level in force, the levels and the sites it answered (the whole client unless it says not)': ({ before, after, event }) =>
    event.type === 'xstate.done.actor.read' && before.matches('reading')
      ? same(after.context.current, event.output.current) &&
        same(after.context.levels, event.output.levels) &&
        same(after.context.divisions, event.output.divisions) &&
        after.context.wholeClient === (event.output.wholeClient ?? true)
      : undefined,
  'a failed read keeps what was read last': ({ before, after, event }) =>
    event.type === 'xstate.error.actor.read' && before.matches('reading')
      ? after.context.current === before.context.current && after.matches('idle')
      : undefined,
  "another console's change is read, unless a command runs (its answer is read then)": ({ before, after, event }) =>
    event.type === 'threat.changed' ? (before.matches('commanding') ? after.matches('commanding') : after.matches('reading')) : undefined,
  'without door control nothing is ever commanded': ({ after, event }) =>
    !after.context.mayControl && event.type.startsWith('threat.') ? !after.matches('commanding') : undefined,
  'nothing is asked while a command runs': ({ before, after, event }) =>
    before.matches('commanding') && event.type.startsWith('threat.')
      ? after.matches('commanding') && after.context.request === before.context.request
      : undefined,
};

describe('threat level panel model', () => {
  const events = [
    { type: 'threat.set', levelId: 4, divisionId: null, minutes: 30 },
    { type: 'threat.set', levelId: 4, divisionId: 2, minutes: null },
    { type: 'threat.lower' },
    { type: 'threat.changed' },
    { type: 'xstate.done.actor.read', output: READ },
    { type: 'xstate.done.actor.read', output: SITE },
    { type: 'xstate.done.actor.read', output: SITE_NONE },
    { type: 'xstate.error.actor.read', error: new Error('offline') },
    { type: 'xstate.done.actor.command', output: LOCKED },
    { type: 'xstate.error.actor.command', error: new Error('Not allowed') },
  ] as any[];
  for (const mayControl of [true, false]) {
    const machine = threatLevelMachine;
    const serialize = (s: ThreatLevelSnapshot) =>
      JSON.stringify([
        s.value,
        s.context.current?.level?.id ?? null,
        s.context.levels.length,
        s.context.wholeClient,
        s.context.divisions[0]?.id ?? null,
        s.context.request?.levelId ?? null,
        s.context.request?.divisionId ?? null,
        s.context.error !== null,
      ]);
    const model = new TestModel(
      machine as any,
      { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 5000, input: { mayControl } } as any,
    );
    const paths = onDemand(() => edgePaths(model, machine, serialize, ['xstate.emit'], { mayControl }));
    it(`${mayControl ? 'with' : 'without'} door control: ${mayControl ? 'sets and lowers one command at a time' : 'never runs a command'}`, () => {
      const commanding = paths().some((p) => p.path.steps.some((st) => st.state.matches('commanding')));
      expect(commanding).toBe(mayControl);
      let during = 0; // with door control, a request while a command runs must have been met (else the check below met nothing)
      for (const p of paths())
        p.path.steps.forEach((st, i) => {
          const before = i > 0 ? p.path.steps[i - 1].state : null;
          if (before?.matches('commanding') && st.event.type.startsWith('threat.')) {
            during++;
            expect(st.state.context.request).toEqual(before.context.request);
          }
          // a command starts only for what the user may set, and only while the level in force is theirs to change
          if (before && !before.matches('commanding') && st.state.matches('commanding')) {
            const asked = st.state.context.request!;
            expect(selectThreatMayChange(before)).toBe(true);
            if (asked.levelId !== null)
              expect(asked.divisionId === null ? before.context.wholeClient : before.context.divisions.some((d) => d.id === asked.divisionId)).toBe(true);
          }
        });
      expect(during > 0).toBe(mayControl);
    });
    if (mayControl)
      it('with door control over one site: sets a level for it, never for the whole client, and leaves a wider level alone', () => {
        const starts = paths().flatMap((p) =>
          p.path.steps.flatMap((st, i) =>
            i > 0 && !p.path.steps[i - 1].state.matches('commanding') && st.state.matches('commanding')
              ? [{ before: p.path.steps[i - 1].state, request: st.state.context.request! }]
              : [],
          ),
        );
        expect(starts.some(({ before, request }) => !before.context.wholeClient && request.divisionId === 2)).toBe(true);
        expect(starts.some(({ before, request }) => !before.context.wholeClient && request.levelId !== null && request.divisionId === null)).toBe(false);
        expect(starts.some(({ before }) => before.context.current?.level && before.context.current.divisionId === null && !before.context.wholeClient)).toBe(
          false,
        );
      });
    it(`${mayControl ? 'with' : 'without'} door control: keeps the invariants of its meta and the panel's rules at every step of the generated paths`, () => {
      // the rules of a command apply with door control only
      const commandRules = /command|asked/;
      expectOracle(
        paths(),
        Object.fromEntries(
          Object.entries(properties).filter(([name]) =>
            mayControl ? !/without door control/.test(name) : /without door control/.test(name) || !commandRules.test(name),
          ),
        ),
        mayControl ? 4 : 3,
      );
    });
    it(`${mayControl ? 'with' : 'without'} door control, on the real actor along every path: ${mayControl ? 'the answer of a command, and only it, is emitted; the command gets what was asked' : 'nothing is emitted and no command is asked'}`, async () => {
      let commands = 0;
      for (const p of paths()) {
        await drive(model, machine, { mayControl }, events, p, ({ emitted, controls, event, before }, step) => {
          // the answer of a command, and only it, is emitted for the toast
          const answered = p.path.steps
            .slice(0, step + 1)
            .filter((st, i) => st.event.type === 'xstate.done.actor.command' && p.path.steps[i - 1]?.state.matches('commanding')).length;
          expect(emitted).toHaveLength(answered);
          const started = before && !before.matches('commanding') && p.path.steps[step].state.matches('commanding');
          if (started && controls.inputs.at(-1)?.id === 'command') {
            commands++;
            expect(controls.inputs.at(-1)?.input).toEqual(
              event.type === 'threat.set'
                ? { levelId: 4, divisionId: event.divisionId, minutes: event.minutes }
                : { levelId: null, divisionId: null, minutes: null },
            );
          }
        });
        const last = p.path.state;
        expect(selectThreatRunning(last)).toBe(last.matches('commanding') ? (last.context.request?.levelId === null ? 'lower' : 'set') : null);
      }
      expect(commands > 0).toBe(mayControl);
    });
  }
});
