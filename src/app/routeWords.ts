// The route table's English words by the keys the console looks them up with (src/i18n tRoute): a route's title by
// its path, its description by `desc:<path>`, a sidebar section by `section.<id>`. The console itself passes the
// English with every lookup, so it needs no dictionary of it; tests and the end-to-end helpers compare the zh-CN
// dictionary with these (src/i18n/i18n.test.ts, e2e/i18n.helpers.ts).
import { NOT_FOUND_ROUTE, ROUTES, SECTIONS } from './routeTable';

export function enRoutes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of [...ROUTES, NOT_FOUND_ROUTE]) {
    out[r.path] = r.title;
    if (r.description) out[`desc:${r.path}`] = r.description;
  }
  for (const s of SECTIONS) out[`section.${s.id}`] = s.title;
  return out;
}
