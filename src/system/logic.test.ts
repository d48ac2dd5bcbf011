// The console's wiring (issue 28): every id a view may ask for resolves to logic here, and nothing else does.
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../contract';
import { viewLogic } from './logic';

describe('the view logic registry', () => {
  it('gives every catalogue resource its list, form and list commands, made once', () => {
    for (const d of CATALOGUE) {
      for (const kind of ['list', 'form', 'commands']) expect(viewLogic(`${kind}:${d.name}`), `${kind}:${d.name}`).toBeDefined();
      expect(viewLogic(`list:${d.name}`)).toBe(viewLogic(`list:${d.name}`));
    }
  });
  it("gives the console's own lists theirs (reports, sessions)", () => {
    for (const name of ['activity', 'ui-errors', 'event-history', 'operator-sessions', 'service-sessions'])
      expect(viewLogic(`list:${name}`), name).toBeDefined();
  });
  it('resolves the named logics and nothing that is not logic', () => {
    for (const id of [
      'doorCommands',
      'dailyAttendanceReading',
      'threatLevelLogic',
      'forgotPasswordMachine',
      'badgePrintLogic',
      'operatorSessionEnd',
      'liveEvents',
    ])
      expect(viewLogic(id), id).toBeDefined();
    for (const id of ['RESYNC_MAX', 'missedEvents', 'list:no-such-resource', 'form:', 'nothing', '__proto__', 'toString'])
      expect(viewLogic(id), id).toBeUndefined();
  });
});
