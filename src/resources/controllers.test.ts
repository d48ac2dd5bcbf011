import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../i18n';
import { setDisplayZone } from '../ui/time';
import { edgeCell } from './controllers';

const online = { edgeState: 'online', edgeSince: '2026-12-02T16:10:00.000Z', edgeSnapshot: 3, edgeApplied: 3, edgePending: 0, edgeVersion: '0.1.0' };

describe('the controllers list’s Edge column', () => {
  afterEach(async () => {
    setDisplayZone('UTC');
    await setLocale('en');
  });
  it('says since when in the user’s zone, composed from the server’s parts', () => {
    setDisplayZone('Asia/Kuala_Lumpur');
    const cell = edgeCell(online);
    expect(cell).toMatch(/^online since .*00:10/); // 16:10 UTC is 00:10 the next day at UTC+8
    expect(cell).toContain('2026');
    expect(cell).not.toContain('16:10');
    expect(cell).toMatch(/, snapshot v3, 0 buffered, edge 0\.1\.0$/);
    expect(edgeCell({ ...online, edgeApplied: 2, edgePending: 12 })).toMatch(/, snapshot v3 \(applied v2\), 12 buffered, edge 0\.1\.0$/);
  });
  it('says a controller never connected, and is empty for a controller without an edge', () => {
    expect(edgeCell({ edgeState: 'offline', edgeSince: null, edgeSnapshot: 0, edgeApplied: 0, edgePending: 0, edgeVersion: null })).toBe(
      'offline, never connected, snapshot v0, 0 buffered',
    );
    expect(edgeCell({ edgeState: null })).toBe('');
  });
  it('speaks the console’s language (简体中文): no English word left', async () => {
    await setLocale('zh-CN');
    setDisplayZone('Asia/Shanghai');
    const cell = edgeCell({ ...online, edgeApplied: 2, edgePending: 12 });
    expect(cell).toContain('在线');
    expect(cell).toContain('快照 v3（已应用 v2）');
    expect(cell).toContain('缓存 12 条事件');
    expect(cell.replace(/Edge|UTC|GMT|CST/g, '')).not.toMatch(/[A-Za-z]{2,}/);
    expect(edgeCell({ edgeState: 'offline', edgeSince: null, edgeSnapshot: 0, edgeApplied: 0, edgePending: 0 })).toMatch(/^离线，从未连接/);
  });
});
