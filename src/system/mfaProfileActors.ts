// Issue 49: the Profile's two-step verification card (src/screens/general/ProfileMfaCard.tsx): the account's factors
// (a reading) and every change of them (one form: new recovery codes, an authenticator app added or removed, a passkey
// added or removed), each confirmed again with a current code of the authenticator app or the password. What an answer
// shows once (recovery codes, the QR code of a new app) comes back in `shown`.
import { provided } from '../../machines/defined';
import { fromPromise } from 'xstate';
import { readingMachine } from '../../machines/reading';
import { createResourceFormMachine, type SaveInput, type Saved } from '../../machines/resourceForm';
import { beginTotpConfirmed, confirmTotp, mfaStatus, newRecoveryCodes, removePasskey, removeTotpConfirmed, type Confirmation } from '../api/mfa';
import { makePasskey } from './mfaLogic';
import type { MfaChangeValues } from '../../contract';

export const mfaStatusReading = provided(readingMachine, { actors: { read: fromPromise<unknown, unknown>(() => mfaStatus()) } });

const confirmation = (v: MfaChangeValues): Confirmation => (v.code ? { code: v.code } : { password: v.password ?? '' });
const codes = (list: string[]) => ({ recoveryCodes: list.join('\n') });

async function change(v: MfaChangeValues): Promise<Record<string, string>> {
  switch (v.change) {
    case 'recovery-codes':
      return codes((await newRecoveryCodes(confirmation(v))).recoveryCodes);
    case 'add-totp': {
      const e = await beginTotpConfirmed(confirmation(v));
      return { secret: e.secret, qr: e.qr };
    }
    case 'confirm-totp':
      return codes((await confirmTotp(v.code ?? '')).recoveryCodes);
    case 'remove-totp':
      await removeTotpConfirmed(confirmation(v));
      return {};
    case 'add-passkey':
      return codes((await makePasskey(confirmation(v), v.name?.trim() || undefined)).recoveryCodes);
    case 'remove-passkey':
      await removePasskey(v.id ?? '', confirmation(v));
      return {};
  }
}

export const mfaChangeForm = createResourceFormMachine({
  save: fromPromise<Saved, SaveInput>(async ({ input }) => ({ id: 1, shown: await change(input.values as MfaChangeValues) })),
});
