// The console's wiring (issue 28): every id a view may ask for resolves to logic here, and nothing else does. Issue
// 48: the start holds only the opening screen's ids; the rest resolve once the screens' logic is loaded, which a view
// asking for one of them waits for (viewLogicReady).
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../contract';
import { loadScreenLogic, viewLogic, viewLogicReady } from './logic';

const OPENING = ['dashboardReading', 'handoverReading', 'handoverCommands', 'doorsReading', 'clientsReading'];

describe('the view logic registry', () => {
  it("resolves the opening screen's ids at once and makes a view of another wait for the screens' logic", async () => {
    for (const id of OPENING) {
      expect(viewLogicReady(id), id).toBeNull();
      expect(viewLogic(id), id).toBeDefined();
    }
    for (const id of ['list:identities', 'doorCommands', 'liveEvents']) {
      expect(viewLogicReady(id), id).toBeInstanceOf(Promise);
      expect(viewLogic(id), id).toBeUndefined();
    }
    // not opening logic either: the helpers the opening module exports
    expect(viewLogicReady('reading')).toBeInstanceOf(Promise);
    await loadScreenLogic();
    for (const id of ['list:identities', 'doorCommands', 'liveEvents', ...OPENING]) expect(viewLogicReady(id), id).toBeNull();
  });
  it('gives every catalogue resource its list, form and list commands, made once', async () => {
    await loadScreenLogic();
    for (const d of CATALOGUE) {
      for (const kind of ['list', 'form', 'commands']) expect(viewLogic(`${kind}:${d.name}`), `${kind}:${d.name}`).toBeDefined();
      expect(viewLogic(`list:${d.name}`)).toBe(viewLogic(`list:${d.name}`));
    }
  });
  it("gives the console's own lists theirs (reports, sessions)", async () => {
    await loadScreenLogic();
    for (const name of ['activity', 'ui-errors', 'event-history', 'operator-sessions', 'service-sessions'])
      expect(viewLogic(`list:${name}`), name).toBeDefined();
  });
  it('resolves the named logics and nothing that is not logic', async () => {
    await loadScreenLogic();
    for (const id of [
      'doorCommands',
      'dailyAttendanceReading',
      'threatLevelLogic',
      'forgotPasswordMachine',
      'badgePrintLogic',
      'operatorSessionEnd',
      'liveEvents',
      ...OPENING,
    ])
      expect(viewLogic(id), id).toBeDefined();
    for (const id of ['RESYNC_MAX', 'missedEvents', 'list:no-such-resource', 'form:', 'nothing', '__proto__', 'toString', 'reading', 'formCommand'])
      expect(viewLogic(id), id).toBeUndefined();
  });
});
