import { describe, expect, it } from 'vitest';
import { isSignIn } from './useTourAtSignIn';

describe('isSignIn: the tour is offered after a sign-in, not after a restore', () => {
  const snap = (state: 'signingIn' | 'restoring' | 'signedIn' | 'active') => ({
    matches: (v: unknown) => JSON.stringify(v) === JSON.stringify({ signedOut: 'signingIn' }) && state === 'signingIn',
    hasTag: (t: string) => t === 'signedIn' && (state === 'signedIn' || state === 'active'),
  });
  it('is a sign-in when the sign-in request was answered', () => {
    expect(isSignIn(snap('signingIn'), snap('signedIn'))).toBe(true);
  });
  it('is not one for a restored session or a change while signed in', () => {
    expect(isSignIn(snap('restoring'), snap('signedIn'))).toBe(false);
    expect(isSignIn(snap('active'), snap('signedIn'))).toBe(false);
    expect(isSignIn(null, snap('signedIn'))).toBe(false);
  });
  it('is not one when the sign-in failed', () => {
    expect(isSignIn(snap('signingIn'), snap('restoring'))).toBe(false);
  });
});
