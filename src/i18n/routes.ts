// Route and section titles (src/app/routeTable.ts) in zh-CN, keyed by path (`desc:<path>` for a route's
// description, `section.<id>` for a sidebar section). English comes from the route table itself (enRoutes), so the
// table stays the one place that names a route; src/i18n/i18n.test.ts fails when a route lacks its zh-CN title.
import { NOT_FOUND_ROUTE, ROUTES, SECTIONS, type RouteDef } from '../app/routeTable';

export function enRoutes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of [...ROUTES, NOT_FOUND_ROUTE]) {
    out[r.path] = r.title;
    if (r.description) out[`desc:${r.path}`] = r.description;
  }
  for (const s of SECTIONS) out[`section.${s.id}`] = s.title;
  return out;
}
export const routeTitleKey = (r: Pick<RouteDef, 'path'>) => r.path;
export const routeDescriptionKey = (r: Pick<RouteDef, 'path'>) => `desc:${r.path}`;
export const sectionKey = (id: string) => `section.${id}`;
