import { afterEach, describe, expect, it, vi } from 'vitest';
import { notices$, notify, type Notice } from './notices';

const saved = (title: string): Notice => ({ intent: 'success', title }) as Notice;

describe('the notices the toasts show', () => {
  afterEach(() => vi.useRealTimers());
  it('tells each subscriber every notice pushed while it listens, and none after it unsubscribes', () => {
    const a: string[] = [];
    const b: string[] = [];
    notify(saved('before anyone listens'));
    const sa = notices$.subscribe((n) => a.push(n.title));
    const sb = notices$.subscribe((n) => b.push(n.title));
    notify(saved('one'));
    sa.unsubscribe();
    notify(saved('two'));
    sb.unsubscribe();
    notify(saved('three'));
    expect(a).toEqual(['one']);
    expect(b).toEqual(['one', 'two']);
  });
  it('counts the same listener subscribed twice as two subscriptions', () => {
    const heard: string[] = [];
    const listen = (n: Notice) => heard.push(n.title);
    const s1 = notices$.subscribe(listen);
    const s2 = notices$.subscribe(listen);
    notify(saved('x'));
    s1.unsubscribe();
    notify(saved('y'));
    s2.unsubscribe();
    expect(heard).toEqual(['x', 'x', 'y']);
  });
  it('goes on to the other listeners, and back to the pusher, when one throws (the error is reported later)', () => {
    vi.useFakeTimers();
    const heard: string[] = [];
    const s1 = notices$.subscribe(() => {
      throw new Error('broken listener');
    });
    const s2 = notices$.subscribe((n) => heard.push(n.title));
    expect(() => notify(saved('still heard'))).not.toThrow();
    expect(heard).toEqual(['still heard']);
    expect(() => vi.runAllTimers()).toThrow('broken listener');
    s1.unsubscribe();
    s2.unsubscribe();
  });
});
