import { describe, expect, it } from 'vitest';
import { checkDoorCommand, doorCommandsFor, doorNeedsAttention } from './doors';

const offered = (status: string) => doorCommandsFor(status).map((c) => (c.force ? `${c.command}!` : c.command));

describe('door commands by state', () => {
  it('offers Open briefly and Unlock on a locked door, Lock on an unlocked one', () => {
    expect(offered('locked')).toEqual(['momentary-unlock', 'unlock']);
    expect(offered('unlocked')).toEqual(['lock']);
  });
  it('offers every command on a briefly unlocked door (a later one wins over its relock) and on a closed or unknown one', () => {
    for (const s of ['unlocked-briefly', 'closed', 'jammed']) expect(offered(s), s).toEqual(['lock', 'momentary-unlock', 'unlock']);
  });
  it('offers Lock on a held-open or tampered door, a forced Lock again on a forced one, and nothing on an offline one', () => {
    expect(offered('held-open')).toEqual(['lock']);
    expect(offered('tamper')).toEqual(['lock']);
    expect(offered('forced-open')).toEqual(['lock!']);
    expect(offered('offline')).toEqual([]);
  });
  it('says why a refused command makes no sense', () => {
    expect(checkDoorCommand('locked', 'lock')).toEqual({ allowed: false, reason: 'is already locked.', forceHelps: false });
    expect(checkDoorCommand('locked', 'unlock')).toEqual({ allowed: true });
  });
  it('counts alarm states as needing attention, normal traffic not', () => {
    expect(['forced-open', 'held-open', 'offline', 'tamper'].map(doorNeedsAttention)).toEqual([true, true, true, true]);
    expect(['closed', 'locked', 'unlocked', 'unlocked-briefly'].map(doorNeedsAttention)).toEqual([false, false, false, false]);
  });
});
