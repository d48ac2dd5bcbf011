/** RFC 4180 CSV of rows; cells with commas, quotes or line breaks are quoted. A leading =,+,-,@ is neutralised. */
export function toCsv(headers: string[], rows: string[][]): string {
  const cell = (v: string) => {
    const s = /^[=+\-@]/.test(v) ? `'${v}` : v;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [headers, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
