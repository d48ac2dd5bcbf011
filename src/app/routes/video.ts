// The Video section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// a redirect to the dashboard (§2).
import { r, DASHBOARD, type RouteDef } from './define';

export const VIDEO_ROUTES: RouteDef[] = [
  r('video', '/video', 'Video', ['2.0.0'], { icon: 'video', hidden: true, redirect: { kind: 'always', to: DASHBOARD } }),
];
