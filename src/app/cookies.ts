// App display state kept in cookies (§3, §4): sidebar open (1) or closed (0), and the size.
import { SIDEBAR_COOKIE, SIZE_COOKIE } from '../../contract';

export type UiSize = 'small' | 'medium' | 'large';

export function readCookie(name: string, source: string = typeof document === 'undefined' ? '' : document.cookie): string | null {
  for (const part of source.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

export function writeCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=31536000; SameSite=Lax`;
}

/** Default open; '0' means the operator closed it. */
export const readSidebarOpen = (source?: string) => readCookie(SIDEBAR_COOKIE, source) !== '0';
export const writeSidebarOpen = (open: boolean) => writeCookie(SIDEBAR_COOKIE, open ? '1' : '0');
export function readSize(source?: string): UiSize {
  const v = readCookie(SIZE_COOKIE, source);
  return v === 'small' || v === 'large' ? v : 'medium';
}
export const writeSize = (size: UiSize) => writeCookie(SIZE_COOKIE, size);
