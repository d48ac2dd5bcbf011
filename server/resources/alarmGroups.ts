// Alarm groups (issue 12): arming and disarming [0.4.7.4] as named actions of the catalogue (scope, 404 for another
// tenant's group, the audit row and the change notice come with them). Arming an armed group (or disarming a
// disarmed one) is 409: the screen that sent it showed an old state.
import { PRIV } from '../../contract';
import type { NamedAction, ResourceHooks } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import { setAlarmGroupState } from '../db/queries/alarmGroups';

const to = (state: 'armed' | 'disarmed'): NamedAction => ({
  privilege: PRIV.alarmGroups.arm,
  async run(ctx, before) {
    if (before.state === state) throw new HttpError(409, fill('record.alreadyInState', '{name} is already {state}', { name: String(before.name), state }));
    await setAlarmGroupState(ctx.tx, before.id, state, ctx.username);
  },
  audit: (before, after) => ({ before: { state: before.state }, after: { state: after.state, inputIds: after.inputIds } }),
});

export const alarmGroupHooks: ResourceHooks = {
  actions: { arm: to('armed'), disarm: to('disarmed') },
};
