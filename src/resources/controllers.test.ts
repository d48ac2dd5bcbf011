import { afterEach, describe, expect, it } from 'vitest';
import { setDisplayZone } from '../ui/time';
import { edgeCell } from './controllers';

describe('the controllers list’s Edge column', () => {
  afterEach(() => setDisplayZone('UTC'));
  it('says since when in the user’s zone, not the server’s UTC', () => {
    setDisplayZone('Asia/Kuala_Lumpur');
    const cell = edgeCell({ edge: 'online since 2026-12-02 16:10 UTC, snapshot v3, 0 buffered, edge 0.1.0', edgeSince: '2026-12-02T16:10:00.000Z' });
    expect(cell).toMatch(/^online since .*00:10/); // 16:10 UTC is 00:10 the next day at UTC+8
    expect(cell).toContain('2026');
    expect(cell).not.toContain('16:10 UTC');
    expect(cell).toMatch(/, snapshot v3, 0 buffered, edge 0\.1\.0$/);
  });
  it('keeps a text without a moment, and is empty for a controller without an edge', () => {
    expect(edgeCell({ edge: 'offline, never connected, snapshot v0, 0 buffered', edgeSince: null })).toBe('offline, never connected, snapshot v0, 0 buffered');
    expect(edgeCell({ edge: null, edgeSince: null })).toBe('');
  });
});
