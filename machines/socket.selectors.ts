// What views read from a socket actor.
import type { SocketSnapshot } from './socket';

export type SocketStatus = 'idle' | 'connecting' | 'connected' | 'waiting';

export const selectSocketStatus = (s: SocketSnapshot): SocketStatus =>
  s.hasTag('online') ? 'connected' : s.matches('waiting') ? 'waiting' : s.hasTag('busy') ? 'connecting' : 'idle';
export const selectIsOnline = (s: SocketSnapshot) => s.hasTag('online');
export const selectUserCount = (s: SocketSnapshot) => s.context.userCount;
export const selectDroppedMessages = (s: SocketSnapshot) => s.context.dropped;
