// The session machine's types (machines/session.ts): its context, input, events and emitted facts, and what its
// injected actors and effects take and give (a restored token, an answered sign-in, the session written to storage).
import type { Sentence } from '../contract/messages';
import type { AvatarColor, IamExchangeResponse, IamProvider, LoginMode, LoginResponse, MeResponse, PrivilegeEntry, Settings, User } from '../contract';

/** What the storage reader gives back, with the injected clock's reading: the machine never reads the wall clock. */
export interface RestoredToken {
  token: string | null;
  now: number;
  /** Issue 49: the ticket an identity provider's sign-in came back with (`/login#iam=…`), to exchange for a session. */
  iamTicket?: string | null;
}
/** Issue 49: an identity provider's sign-in exchanged for a session, with the console path it was started from. */
export type IamAuthenticated = IamExchangeResponse & { now: number };
/** A login or client switch: the server's answer plus the clock's now when it arrived. */
export type Authenticated = LoginResponse & { now: number };
/** The session read again (/me) with the clock's reading when it came. */
export type MeRead = MeResponse & { now?: number };
/** Written to storage on sign-in (§3): jwt, the grant list (as `{priviledges}`), roles, username, clientId, user. */
export interface StoredSession {
  token: string;
  privileges: PrivilegeEntry[];
  roles: string[];
  username: string;
  clientId: number | null;
  user: User;
}

export interface SessionContext {
  token: string | null;
  user: User | null;
  privileges: PrivilegeEntry[];
  settings: Settings;
  error: string | Sentence | null;
  notice: string | null;
  redirect: string | null;
  /**
   * Issue 10: whose session the return address belongs to: the user whose session ended (signed out or expired),
   * or null after a fresh load. A different user signing in next starts at their own home, not at that address.
   */
  returnFor: string | null;
  /** How the last session ended: an operator who signs out on purpose is not carrying a return address. */
  endedBy: 'signOut' | 'expiry' | null;
  loginMode: LoginMode;
  /** Epoch ms of the token's exp. */
  expiresAt: number | null;
  /** The injected clock's now when the token was last checked; the expiry delay is expiresAt - observedAt. */
  observedAt: number | null;
  /**
   * The server's clock minus this browser's (ms), measured on the last answer that carried the server's time (sign-in,
   * /me, a client switch); 0 before any. A time of the server (a token's exp, an alarm's raised time) is compared with
   * the browser's clock plus this: a console whose clock runs ten minutes slow neither ends its session ten minutes late
   * nor takes the alarms of the ten minutes before the sign-in for news.
   */
  clockOffset: number;
  /** Settings before an optimistic change, restored if saving fails. */
  settingsBeforeSave: Settings | null;
  /** Issue 49: the identity providers the sign-in page offers ("Sign in with <name>"), null until asked; not a session's, kept across them. */
  iamProviders: IamProvider[] | null;
}

export interface SessionInput {
  loginMode?: LoginMode;
}

export type SettingsPatch = Partial<Settings>;

/** Facts the shell hears (toasts and notices of a session go with it). */
/** `session.profileSaved`: the server kept the profile (the shell says so in a toast, issue 29). */
export type SessionEmitted = { type: 'session.ended' } | { type: 'session.clientChanged' } | { type: 'session.profileSaved' };

export type SessionEvent =
  | { type: 'session.signIn'; username: string; password: string; redirect?: string }
  /** Issue 49: "Sign in with a passkey": a passkey alone, no password first. */
  | { type: 'session.passkeySignIn'; redirect?: string }
  | { type: 'session.signOut' }
  /** Issue 49: "Sign in with <provider>": the browser leaves for the provider's sign-in (and comes back with a ticket). */
  | { type: 'session.iamStart'; provider: string; redirect?: string }
  /** Issue 49: the page came back from the browser's history while leaving for the provider (the back button). */
  | { type: 'session.iamCancelled' }
  /** Issue 49: the sign-in page is on screen: which providers does the server offer (asked once a load)? */
  | { type: 'session.iamProvidersWanted' }
  /** Issue 49: the server's answer (an error leaves the list empty: the password form alone). */
  | { type: 'xstate.done.actor.iamProviders'; output: IamProvider[] }
  | { type: 'session.expired'; path?: string }
  | { type: 'session.wake' }
  | { type: 'session.selectClient'; clientId: number | null }
  | { type: 'session.updateProfile'; name?: string; avatarColor?: AvatarColor; timezone?: string | null }
  | { type: 'session.updateSettings'; patch: SettingsPatch }
  | { type: 'session.noticeDismissed' }
  | { type: 'session.redirectHandled' }
  /** The server's grants tag differs from the held entries' (issue 11): re-read them without a new sign-in. */
  | { type: 'session.grantsChanged' }
  /**
   * Another tab of this browser changed the stored session (signed in, switched client, signed out): `token` is the
   * stored token now (null: signed out there), `now` the clock's reading. This tab follows it.
   */
  | { type: 'session.elsewhere'; token: string | null; now: number };
