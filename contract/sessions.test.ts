import { describe, expect, it } from 'vitest';
import { EndSessionsRequest, SessionListQuery, formatInZone, shortUserAgent, validate } from '.';

describe('session display helpers', () => {
  it("names a browser and its system the way a person says it, and keeps an integration's own name", () => {
    expect(shortUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36')).toBe('Chrome 126 on Linux');
    expect(
      shortUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87'),
    ).toBe('Edge 126 on Windows');
    expect(shortUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe(
      'Safari 17 on macOS',
    );
    expect(shortUserAgent('Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0')).toBe('Firefox 127 on Linux');
    expect(shortUserAgent('door-sync/2.3 (node 20)')).toBe('door-sync/2.3');
    expect(shortUserAgent('')).toBe('—');
    expect(shortUserAgent(null)).toBe('—');
  });

  it("shows an instant in the user's time zone, and UTC when the zone is unknown", () => {
    expect(formatInZone('2026-11-23T09:02:00Z', 'Asia/Kuala_Lumpur')).toBe('23 Nov 2026, 17:02');
    expect(formatInZone('2026-11-23T09:02:00Z', 'Europe/London')).toBe('23 Nov 2026, 09:02');
    expect(formatInZone('2026-11-23T09:02:00Z', 'Mars/Olympus')).toBe('23 Nov 2026, 09:02 UTC');
    expect(formatInZone(null, 'UTC')).toBe('—');
  });

  it('accepts only a known state filter and a non-empty list of positive ids to end', () => {
    expect(validate({ state: 'ended' }, SessionListQuery).ok).toBe(true);
    expect(validate({ state: 'closed' }, SessionListQuery)).toMatchObject({ ok: false, violations: [{ field: 'state' }] });
    expect(validate({ ids: [3, 4] }, EndSessionsRequest).ok).toBe(true);
    for (const bad of [{}, { ids: [] }, { ids: [0] }, { ids: ['3'] }, { ids: [1], extra: true }]) expect(validate(bad, EndSessionsRequest).ok).toBe(false);
  });
});
