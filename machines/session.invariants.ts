// What holds in each state of the session machine (machines/session.ts), written apart from its transitions: the
// states' `meta.invariants`, read by nothing in the machine. The model tests check them at every step of every path
// generated from the machine's graph (model-tests/harness.ts, checkPaths), and on the real actor.
import { isTokenLive } from './session.helpers';
import type { SessionContext } from './session.types';

type Held = { context: SessionContext };

/** Signed in, whatever it is doing: a token still live on the session's last clock reading, with its user. */
export const signedInInvariants = {
  'a token and the user it was issued to': ({ context: c }: Held) => c.token !== null && c.user !== null && c.expiresAt !== null,
  "the token is live on the session's last clock reading (the server's time)": ({ context: c }: Held) =>
    c.observedAt !== null && isTokenLive(c.token, c.observedAt + c.clockOffset),
};

/** Signed out: nothing of a session is held (§5), whoever ended it. */
export const signedOutInvariants = {
  'no token, user, grants or expiry': ({ context: c }: Held) =>
    c.token === null && c.user === null && c.privileges.length === 0 && c.expiresAt === null && c.observedAt === null,
  'no settings wait for a save': ({ context: c }: Held) => c.settingsBeforeSave === null,
};

/** Reading the user of a stored token: the token is held, a user not yet. */
export const fetchingMeInvariants = {
  'a token to read the user of, and its expiry': ({ context: c }: Held) => c.token !== null && c.expiresAt !== null,
};

/** Saving settings optimistically: what to restore if the save fails is kept; outside a save nothing is. */
export const savingSettingsInvariants = {
  'the settings before the change are kept until the save ends': ({ context: c }: Held) => c.settingsBeforeSave !== null,
};
export const notSavingSettingsInvariants = {
  'no settings wait for a save': ({ context: c }: Held) => c.settingsBeforeSave === null,
};

/** Issue 49: on the way to an identity provider, or exchanging what it came back with: nothing of an earlier try is said. */
export const iamRoundTripInvariants = {
  'no error or notice of an earlier try is shown': ({ context: c }: Held) => c.error === null && c.notice === null,
};

/** Issue 49: the password was right, the second factor is asked for (machines/session.mfa.ts): no session yet, no error of it. */
export const secondStepInvariants = {
  'no session is held until the second step gives one': ({ context: c }: Held) => c.token === null && c.user === null,
  'the password step left no error shown': ({ context: c }: Held) => c.error === null,
};
