import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../i18n';
import { setDisplayZone } from '../ui/time';
import { degradedCell, edgeCell, snapshotCell } from './controllers';

const online = { edgeState: 'online', edgeSince: '2026-12-02T16:10:00.000Z', edgeSnapshot: 3, edgeApplied: 3, edgePending: 0, edgeVersion: '0.1.0' };
const offline = { ...online, edgeState: 'offline', edgeMaxOfflineDays: 7, edgePending: 40 };
const DAY = 86_400_000;

describe('the controllers list’s Edge columns', () => {
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
    expect(cell).toMatch(/, 0 buffered, edge 0\.1\.0$/);
    expect(edgeCell({ ...online, edgePending: 12 })).toMatch(/, 12 buffered, edge 0\.1\.0$/);
  });
  it('says the snapshot’s version and real age (since the server built the version applied), online and offline, past the client’s limit', () => {
    const since = Date.parse(online.edgeSince);
    expect(snapshotCell(online)).toBe('snapshot v3, up to date');
    expect(snapshotCell({ ...online, edgeApplied: 2 })).toBe('snapshot v3 (applied v2), being applied');
    // built 3 h before: an online edge's snapshot is 3 h old, not "up to date" alone
    const built = { edgeBuiltAt: new Date(since - 3 * 3_600_000).toISOString() };
    expect(snapshotCell({ ...online, ...built }, since + 10 * 60_000)).toBe('snapshot v3, 3 h old, up to date');
    expect(snapshotCell({ ...offline, ...built }, since + 25 * 60_000)).toBe('snapshot v3, 3 h old, offline 25 min');
    expect(snapshotCell(offline, since + 25 * 60_000)).toBe('snapshot v3, offline 25 min');
    expect(snapshotCell(offline, since + 5 * 3_600_000)).toBe('snapshot v3, offline 5 h');
    expect(snapshotCell(offline, since + 3 * DAY)).toBe('snapshot v3, offline 3 d');
    expect(snapshotCell({ ...offline, ...built }, since + 8 * DAY)).toBe('snapshot v3, 8 d old, offline 8 d, past its 7 days');
  });
  it('says, offline only, at how many of its doors anti-passback is soft', () => {
    expect(edgeCell({ ...online, edgeSoftApb: 2 })).not.toContain('anti-passback');
    expect(edgeCell({ ...offline, edgeSoftApb: 2 })).toMatch(/^offline since .*, anti-passback soft at 2 doors, 40 buffered/);
    expect(edgeCell({ ...offline, edgeSoftApb: 1 })).toMatch(/^offline since .*, anti-passback soft at 1 door, 40 buffered/);
    expect(edgeCell({ ...offline, edgeSoftApb: 0 })).not.toContain('anti-passback');
  });
  it('says what its doors do once the snapshot is too old: one policy, or each with its doors', () => {
    expect(degradedCell({ ...online, edgeDegraded: 'keep:3' })).toBe('keep deciding');
    expect(degradedCell({ ...online, edgeDegraded: 'facility:1,locked:2' })).toBe('facility code only (1 doors), locked (2 doors)');
    expect(degradedCell({ edgeState: null, edgeDegraded: 'keep:1' })).toBe('');
  });
  it('says a controller never connected, and is empty for a controller without an edge', () => {
    expect(edgeCell({ edgeState: 'offline', edgeSince: null, edgeSnapshot: 0, edgeApplied: 0, edgePending: 0, edgeVersion: null })).toBe(
      'offline, never connected, 0 buffered',
    );
    expect(edgeCell({ edgeState: null })).toBe('');
    expect(snapshotCell({ edgeState: null })).toBe('');
  });
  it('speaks the console’s language (简体中文): no English word left', async () => {
    await setLocale('zh-CN');
    setDisplayZone('Asia/Shanghai');
    const since = Date.parse(online.edgeSince);
    const cells = [
      edgeCell({ ...online, edgePending: 12 }),
      snapshotCell({ ...offline, edgeApplied: 2, edgeBuiltAt: online.edgeSince }, since + 8 * DAY),
      edgeCell({ ...offline, edgeSoftApb: 3 }),
      degradedCell({ ...online, edgeDegraded: 'facility:1,keep:1,locked:2' }),
    ];
    expect(cells[0]).toContain('在线');
    expect(cells[0]).toContain('缓存 12 条事件');
    expect(cells[1]).toBe('快照 v3（已应用 v2），8 天前，已离线 8 天，已超过 7 天');
    expect(cells[2]).toContain('3 扇门的反潜回为软模式');
    expect(cells[3]).toBe('仅凭设施码（1 扇门），继续判断（1 扇门），上锁（2 扇门）');
    for (const cell of cells) expect(cell.replace(/Edge|UTC|GMT|CST/g, '')).not.toMatch(/[A-Za-z]{2,}/);
    expect(edgeCell({ edgeState: 'offline', edgeSince: null, edgeSnapshot: 0, edgeApplied: 0, edgePending: 0 })).toMatch(/^离线，从未连接/);
  });
});
