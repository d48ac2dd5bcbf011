// The relay's batch body (server/realtime/relay.ts): what one process publishes in a turn for a tenant, read back by
// every process. The broker itself is exercised in relay.rabbitmq.test.ts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeBatch, encodeBatch, type RelayMessage } from './relay';

const message = fc.record(
  {
    destination: fc.constantFrom('/events', '/alarmcount', '/alarm-notice', '/events/door-1'),
    json: fc.json(),
    users: fc.option(fc.array(fc.nat(), { maxLength: 4 }), { nil: undefined }),
    division: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
    counts: fc.option(fc.record({ none: fc.nat(), byDivision: fc.dictionary(fc.integer({ min: 1, max: 999 }).map(String), fc.nat()) }), { nil: undefined }),
  },
  { requiredKeys: ['destination', 'json'] },
);

describe('relay batches', () => {
  it('read back the messages of a batch, in order, with their audience, for the tenant it came on', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 30 }), (items) => {
        const sent: RelayMessage[] = items.map((m) => ({ tenant: '7', ...m }) as RelayMessage);
        const { messages, refused } = decodeBatch('7', encodeBatch(sent));
        expect(refused).toBe(0);
        expect(messages).toEqual(sent.map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined))));
      }),
    );
  });

  it('leave out what is not a well-formed message, keeping the rest, and never take the tenant from the body', () => {
    const good = { destination: '/events', json: '{"id":1}' };
    const body = JSON.stringify([
      good,
      null,
      5,
      { destination: '', json: '{}' },
      { destination: '/events', json: {} },
      { destination: '/events', json: '{}', users: ['1'] },
      { destination: '/events', json: '{}', division: 0 },
      { destination: '/events', json: '{}', counts: { none: -1, byDivision: {} } },
      { destination: '/events', json: '{"id":2}', tenant: '9', division: 4 },
    ]);
    const { messages, refused } = decodeBatch('7', body);
    expect(refused).toBe(7);
    expect(messages).toEqual([
      { tenant: '7', ...good },
      { tenant: '7', destination: '/events', json: '{"id":2}', division: 4 },
    ]);
    expect(decodeBatch('7', 'not json')).toEqual({ messages: [], refused: 1 });
    expect(decodeBatch('7', '{"destination":"/events"}')).toEqual({ messages: [], refused: 1 });
  });
});
