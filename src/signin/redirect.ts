/** Only same-origin paths are followed after sign-in (never another site, nor the sign-in page itself). */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return null;
  return value;
}

/** The return address the sign-in page was opened with (`/login?redirect=/doors`), if it may be followed. */
export const redirectOfQuery = (search: string): string | null => safeRedirect(new URLSearchParams(search).get('redirect'));
