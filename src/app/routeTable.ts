// THE route table of SPEC §2: every path, title, layout and cache flag, privilege list, route type and redirect
// rule, in one place. It drives the router (src/app/App.tsx), the guard (guard.ts) and the sidebar. Data only.
// The rows themselves live by sidebar section in src/app/routes/ (one file per section, built with routes/define.ts);
// this file joins them in the sidebar's order.
import { CATALOGUE_INDEX } from '../../contract/resources/catalogueIndex';
import type { ResourceSummary } from '../../contract/resources/summary';
import { catalogue, settings, type RouteDef, type SectionId } from './routes/define';
import { GENERAL_ROUTES } from './routes/general';
import { MONITOR_ROUTES } from './routes/monitor';
import { MANAGE_ROUTES } from './routes/manage';
import { CONFIGURE_ROUTES } from './routes/configure';
import { HARDWARE_ROUTES } from './routes/hardware';
import { REPORT_ROUTES } from './routes/report';
import { SERVER_ROUTES } from './routes/server';
import { VISITOR_ROUTES } from './routes/visitor';
import { VIDEO_ROUTES } from './routes/video';
import { ATTENDANCE_ROUTES } from './routes/attendance';

export { ATTENDANCE_MENU, CLIENTS, DASHBOARD, FORBIDDEN, LOGIN } from './routes/define';
export type { RedirectRule, RouteDef, ScreenKey, SectionId } from './routes/define';

export const SECTIONS: { id: SectionId; title: string; icon: string }[] = [
  { id: 'general', title: 'General', icon: 'home' },
  { id: 'monitor', title: 'Monitor', icon: 'eye-open' },
  { id: 'manage', title: 'Manage', icon: 'people' },
  { id: 'configure', title: 'Configure', icon: 'cog' },
  { id: 'hardware', title: 'Hardware', icon: 'desktop' },
  { id: 'report', title: 'Report', icon: 'document' },
  { id: 'server', title: 'Server', icon: 'database' },
  { id: 'visitor', title: 'Visitor', icon: 'id-number' },
  { id: 'video', title: 'Video', icon: 'video' },
  { id: 'attendance', title: 'Attendance', icon: 'time' },
];

/**
 * Issue 48: a catalogue resource that says what its list is for (`description`) and has no row in a section file gets
 * its rows from its declaration (list, add, edit; a singleton its settings form), after the last row of its section:
 * a new plain resource is its declaration and its migration. A row by hand places it elsewhere in the sidebar.
 */
export function withDeclaredRoutes(rows: readonly RouteDef[], resources: readonly ResourceSummary[] = CATALOGUE_INDEX): RouteDef[] {
  const out = [...rows];
  const paths = new Set(rows.map((x) => x.path));
  for (const res of resources) {
    if (!res.description || paths.has(res.route)) continue;
    const section = res.section as SectionId;
    if (!SECTIONS.some((s) => s.id === section)) throw new Error(`resource ${res.name}: no sidebar section ${res.section}`);
    const derived = res.singleton ? [settings(res)] : catalogue(res);
    // after the last row of its section, or of the sections before it (the rows are in the sections' order)
    const at = out.findLastIndex((x) => sectionOrder(x.section) <= sectionOrder(section)) + 1;
    out.splice(at, 0, ...derived);
    for (const d of derived) paths.add(d.path);
  }
  return out;
}
const sectionOrder = (id: SectionId) => SECTIONS.findIndex((s) => s.id === id);

export const ROUTES: RouteDef[] = withDeclaredRoutes([
  ...GENERAL_ROUTES,
  ...MONITOR_ROUTES,
  ...MANAGE_ROUTES,
  ...CONFIGURE_ROUTES,
  ...HARDWARE_ROUTES,
  ...REPORT_ROUTES,
  ...SERVER_ROUTES,
  ...VISITOR_ROUTES,
  ...VIDEO_ROUTES,
  ...ATTENDANCE_ROUTES,
]);

/** §2: any unknown path shows 404 Page Not Found, open to everyone. */
export const NOT_FOUND_ROUTE: RouteDef = {
  path: '*',
  title: 'Page Not Found',
  section: 'general',
  layout: false,
  cache: false,
  type: 'PUBLIC',
  hidden: true,
  screen: 'notFound',
};
