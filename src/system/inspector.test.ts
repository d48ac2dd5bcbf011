import { describe, expect, it, vi } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { createInspectorObserver, inspectorWanted } from './inspector';

const ev = (n: number) => ({ type: '@xstate.event', n }) as unknown as InspectionEvent;

describe('the Stately inspector', () => {
  it('is asked for by ?inspect=1 or VITE_INSPECT=1 only', () => {
    expect(inspectorWanted('?inspect=1', undefined)).toBe(true);
    expect(inspectorWanted('?a=b&inspect=1', undefined)).toBe(true);
    expect(inspectorWanted('', '1')).toBe(true);
    expect(inspectorWanted('?inspect=0', '0')).toBe(false);
    expect(inspectorWanted('', undefined)).toBe(false);
  });

  it('is not loaded at all when not asked for', () => {
    let loads = 0;
    expect(
      createInspectorObserver(false, async () => {
        loads++;
        throw new Error('no');
      }),
    ).toBeNull();
    expect(loads).toBe(0);
  });

  it('hands the events seen before it loaded to the inspector, in order, then forwards the rest', async () => {
    const seen: unknown[] = [];
    const observer = createInspectorObserver(true, async () => ({
      createBrowserInspector: () => ({ inspect: { next: (e: InspectionEvent) => seen.push(e) } }),
    }))!;
    observer(ev(1));
    observer(ev(2));
    expect(seen).toEqual([]);
    // once loaded, it hands over what it buffered (a bare tick stood here)
    await vi.waitFor(() => expect(seen).toEqual([ev(1), ev(2)]), { interval: 5 });
    observer(ev(3));
    expect(seen).toEqual([ev(1), ev(2), ev(3)]);
  });
});
