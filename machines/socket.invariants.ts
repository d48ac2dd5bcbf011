// What holds in each state of the socket machine (./socket.ts), written apart from its transitions and read by nothing
// in it: its states' `meta`. The model tests check them at every step of every generated path
// (model-tests/socket.model.test.ts, with model-tests/harness.ts).

/** The part of the machine's snapshot the invariants read (not imported from ./socket: that imports this file). */
type Held = {
  context: { service: string; userCount: number; dropped: number; connects: number };
  children: Record<string, unknown>;
  hasTag: (tag: 'online' | 'busy') => boolean;
};
const runs = (s: Held, id: string) => id in s.children;

export const invariants = {
  machine: {
    'counts are whole and never below 0': ({ context: c }: Held) => [c.userCount, c.dropped, c.connects].every((n) => Number.isInteger(n) && n >= 0),
    'only the visitor-management connection counts users': ({ context: c }: Held) => c.service === 'visitor' || c.userCount === 0,
    'the token read and the transport never run together': (s: Held) => !(runs(s, 'readToken') && runs(s, 'connection')),
  },
  idle: {
    'disconnected: no transport, no token read, neither busy nor online': (s: Held) =>
      !runs(s, 'connection') && !runs(s, 'readToken') && !s.hasTag('busy') && !s.hasTag('online'),
  },
  checking: {
    'the stored token is read, busy, not online': (s: Held) => runs(s, 'readToken') && s.hasTag('busy') && !s.hasTag('online'),
  },
  online: { 'the transport runs': (s: Held) => runs(s, 'connection') },
  connecting: { 'busy, not yet online': (s: Held) => s.hasTag('busy') && !s.hasTag('online') },
  connected: {
    'online, not busy, and counted as connected at least once': (s: Held) => s.hasTag('online') && !s.hasTag('busy') && s.context.connects >= 1,
  },
  waiting: {
    'waiting to reconnect: no transport, no token read, neither busy nor online': (s: Held) =>
      !runs(s, 'connection') && !runs(s, 'readToken') && !s.hasTag('busy') && !s.hasTag('online'),
  },
};
