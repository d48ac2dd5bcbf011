// Issue 49: the Profile's two-step verification card (src/screens/general/ProfileMfaCard.tsx): the account's factors
// (a reading) and new recovery codes (a form whose answer, the codes, is shown once).
import { fromPromise } from 'xstate';
import { readingMachine } from '../../machines/reading';
import { createResourceFormMachine, type SaveInput, type Saved } from '../../machines/resourceForm';
import { mfaStatus, newRecoveryCodes } from '../api/mfa';

export const mfaStatusReading = readingMachine.provide({ actors: { read: fromPromise<unknown, unknown>(() => mfaStatus()) } });

/** `values`: `{ code }` or `{ password }`; the codes come back in `shown.recoveryCodes`, one per line. */
export const newRecoveryCodesForm = createResourceFormMachine({
  save: fromPromise<Saved, SaveInput>(async ({ input }) => {
    const done = await newRecoveryCodes(input.values as { code: string } | { password: string });
    return { id: 1, shown: { recoveryCodes: done.recoveryCodes.join('\n') } };
  }),
});
