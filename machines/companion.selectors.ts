// What views read from the companion actor (header badge, photo and badge buttons): small named slices.
import type { CompanionSnapshot } from './companion';

export type CompanionStatus = 'offline' | 'found' | 'connected';

/** §4: offline → found → connected; waiting for the next try reads as offline. */
export const selectCompanionStatus = (s: CompanionSnapshot): CompanionStatus =>
  s.matches({ online: 'connected' }) ? 'connected' : s.matches('online') ? 'found' : 'offline';
/** The companion's actions are offered only when connected. */
export const selectCanUseCompanion = (s: CompanionSnapshot) => s.hasTag('usable');
export const selectCanCapturePhoto = (s: CompanionSnapshot) => s.hasTag('usable') && s.context.capabilities.includes('photo.capture');
export const selectCanPrintBadge = (s: CompanionSnapshot) => s.hasTag('usable') && s.context.capabilities.includes('badge.print');
export const selectCanNotify = (s: CompanionSnapshot) => s.hasTag('usable') && s.context.capabilities.includes('notify.alarm');
export const selectCompanionPort = (s: CompanionSnapshot) => (s.matches('online') ? s.context.port : null);
export const selectCompanionVersion = (s: CompanionSnapshot) => (s.hasTag('usable') ? s.context.version : null);
export const selectCompanionError = (s: CompanionSnapshot) => s.context.error;
/** Is the machine between tries (a "Retry now" link makes sense)? */
export const selectCompanionIsWaiting = (s: CompanionSnapshot) => s.matches('waiting');
/** Is a photo or a badge being waited for (a spinner)? */
export const selectCompanionIsBusy = (s: CompanionSnapshot) => Object.keys(s.context.pending).length > 0;
