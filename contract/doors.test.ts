import { describe, expect, it } from 'vitest';
import { checkDoorCommand, closedDoorLock, doorCommandsFor, doorNeedsAttention } from './doors';

const offered = (status: string) => doorCommandsFor(status).map((c) => (c.force ? `${c.command}!` : c.command));

describe('door commands by state', () => {
  it('offers Open briefly and Unlock on a locked door, Lock on an unlocked one', () => {
    expect(offered('locked')).toEqual(['momentary-unlock', 'unlock']);
    expect(offered('unlocked')).toEqual(['lock']);
  });
  it('offers every command on a briefly unlocked door (a later one wins over its relock) and on an unknown one', () => {
    for (const s of ['unlocked-briefly', 'jammed']) expect(offered(s), s).toEqual(['lock', 'momentary-unlock', 'unlock']);
  });
  it('issue 50: a closed door is locked as its mode leaves it, and offers the commands of that lock', () => {
    for (const mode of [undefined, 'card', 'card-pin']) {
      expect(closedDoorLock(mode)).toBe('locked');
      expect(doorCommandsFor('closed', mode).map((c) => c.command)).toEqual(['momentary-unlock', 'unlock']);
      expect(checkDoorCommand('closed', 'lock')).toEqual({ allowed: true }); // the server still takes it: the lock is inferred
    }
    expect(closedDoorLock('unlocked')).toBe('unlocked');
    expect(doorCommandsFor('closed', 'unlocked').map((c) => c.command)).toEqual(['lock']);
  });
  it('offers Lock on a held-open or tampered door, a forced Lock again on a forced one, and nothing on an offline one', () => {
    expect(offered('held-open')).toEqual(['lock']);
    expect(offered('tamper')).toEqual(['lock']);
    expect(offered('forced-open')).toEqual(['lock!']);
    expect(offered('offline')).toEqual([]);
  });
  it('says why a refused command makes no sense', () => {
    expect(checkDoorCommand('locked', 'lock')).toEqual({ allowed: false, code: 'door.alreadyLocked', reason: 'is already locked.', forceHelps: false });
    expect(checkDoorCommand('locked', 'unlock')).toEqual({ allowed: true });
  });
  it('counts alarm states as needing attention, normal traffic not', () => {
    expect(['forced-open', 'held-open', 'offline', 'tamper'].map(doorNeedsAttention)).toEqual([true, true, true, true]);
    expect(['closed', 'locked', 'unlocked', 'unlocked-briefly'].map(doorNeedsAttention)).toEqual([false, false, false, false]);
  });
});
