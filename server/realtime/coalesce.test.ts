// The SockJS writer that sends the frames of one event-loop turn as one message (server/realtime/coalesce.ts).
import { describe, expect, it } from 'vitest';
import { COALESCE_MAX_CHARS, coalescing } from './coalesce';

function fake() {
  const sent: string[] = [];
  let closed = false;
  const turns: Array<() => void> = [];
  const t = coalescing(
    {
      send: (s) => {
        if (closed) throw new Error('written after close');
        sent.push(s);
      },
      close: () => {
        closed = true;
      },
    },
    (f) => {
      turns.push(f);
    },
  );
  const endTurn = () => {
    for (const f of turns.splice(0)) f();
  };
  return { t, sent, endTurn, closed: () => closed };
}

describe('coalescing SockJS writer', () => {
  it('sends the frames of one turn as one message, in order, and the next turn as the next', () => {
    const { t, sent, endTurn } = fake();
    t.send('MESSAGE\na\n\n1\0');
    t.send('MESSAGE\na\n\n2\0');
    t.send('MESSAGE\na\n\n3\0');
    expect(sent).toEqual([]);
    endTurn();
    expect(sent).toEqual(['MESSAGE\na\n\n1\0MESSAGE\na\n\n2\0MESSAGE\na\n\n3\0']);
    t.send('MESSAGE\na\n\n4\0');
    endTurn();
    expect(sent).toEqual(['MESSAGE\na\n\n1\0MESSAGE\na\n\n2\0MESSAGE\na\n\n3\0', 'MESSAGE\na\n\n4\0']);
    endTurn();
    expect(sent).toHaveLength(2); // nothing waiting, nothing sent
  });

  it('writes at once when what waits reaches its bound, keeping the order', () => {
    const { t, sent, endTurn } = fake();
    const big = 'x'.repeat(COALESCE_MAX_CHARS / 2);
    t.send(`${big}1`);
    t.send(`${big}2`);
    expect(sent).toEqual([`${big}1${big}2`]);
    t.send('3');
    endTurn();
    expect(sent).toEqual([`${big}1${big}2`, '3']);
  });

  it('sends what waits before it closes (an ERROR frame is never lost to the close)', () => {
    const { t, sent, endTurn, closed } = fake();
    t.send('RECEIPT\nreceipt-id:1\n\n\0');
    t.send('ERROR\nmessage:bad frame\n\n\0');
    t.close();
    expect(sent).toEqual(['RECEIPT\nreceipt-id:1\n\n\0ERROR\nmessage:bad frame\n\n\0']);
    expect(closed()).toBe(true);
    endTurn(); // the turn's flush finds nothing: nothing is written after the close
    expect(sent).toHaveLength(1);
  });
});
