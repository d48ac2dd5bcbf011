import { describe, expect, it } from 'vitest';
import { readCookie, readSidebarOpen, readSize } from './cookies';

describe('display cookies', () => {
  it('reads the sidebar as open unless the cookie says 0', () => {
    expect(readSidebarOpen('')).toBe(true);
    expect(readSidebarOpen('sidebarStatus=1')).toBe(true);
    expect(readSidebarOpen('a=b; sidebarStatus=0')).toBe(false);
  });
  it('reads the size, medium by default', () => {
    expect(readSize('size=small')).toBe('small');
    expect(readSize('size=huge')).toBe('medium');
    expect(readCookie('x', 'y=1')).toBeNull();
  });
});
