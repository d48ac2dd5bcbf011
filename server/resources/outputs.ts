// Outputs (issue 12): a manual pulse [0.5.4.2] as a named action of the catalogue (scope, 404 for another tenant's
// output, the audit row come with it). The pulse itself runs after the commit through the hardware simulator, and the
// answer waits for it: the output's "active" event (naming who pulsed it) is stored when the operator is told the
// pulse is done; its "idle" event follows after the pulse time.
import { PRIV } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';

export type Pulse = (clientId: number, outputId: number, by: string) => Promise<unknown>;

export const outputHooks = (pulse?: Pulse, log: (m: string) => void = () => {}): ResourceHooks => ({
  actions: {
    pulse: {
      privilege: PRIV.outputs.edit,
      async run() {
        /* nothing of the row changes: the pulse is an event */
      },
      audit: (before) => ({ before: null, after: { pulse: before.name, seconds: before.pulseSeconds } }),
      async afterCommit(clientId, after, who) {
        await pulse?.(clientId, after.id, who.username).catch((e) => log(`pulse ${after.id}: ${e}`));
      },
    },
  },
});
