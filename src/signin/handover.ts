// The sign-in page of a cold load (./SignInPage.tsx) hands what was typed to the console's own form (src/screens/auth): the
// form starts with the draft, sends the session its sign-in as a click would, and says it has taken over, so the
// sign-in page leaves the screen. The session machine decides everything after that, as for any sign-in.
import type { SignInDraft } from './SignInView';

let handed: SignInDraft | null = null;
const listeners = new Set<() => void>();

/** The sign-in page: this draft is to be signed in with by the console's form when it mounts. */
export function handDraft(draft: SignInDraft): void {
  handed = draft;
}

/** The draft handed over, if any, without taking it (the form's first state). */
export function peekHandedDraft(): SignInDraft | null {
  return handed;
}

/** The console's form takes the draft (once) and tells the sign-in page it is on screen. */
export function takeHandedDraft(): SignInDraft | null {
  const draft = handed;
  handed = null;
  if (draft) for (const l of listeners) l();
  return draft;
}

/** The sign-in page hears when the console's form has taken its draft. */
export function onDraftTaken(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
