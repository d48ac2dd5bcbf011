// The General section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// the public and sign-in pages, the dashboard, profile, print and 403.
import { PRIV } from '../../../contract';
import { r, DASHBOARD, LOGIN, FORBIDDEN, CLIENTS, type RouteDef } from './define';

export const GENERAL_ROUTES: RouteDef[] = [
  r('general', '/', 'Home', undefined, { type: 'PUBLIC', hidden: true, cache: false, layout: false, redirect: { kind: 'always', to: DASHBOARD } }),
  r('general', LOGIN, 'Sign in', undefined, { type: 'PUBLIC', layout: false, cache: false, hidden: true, screen: 'login', handsOver: true }),
  r('general', '/login-remake', 'Sign in', undefined, {
    type: 'RESTRICTED',
    layout: false,
    cache: false,
    hidden: true,
    screen: 'loginRemake',
    handsOver: true,
  }),
  r('general', DASHBOARD, 'Dashboard', ['0.1'], { icon: 'dashboard', screen: 'dashboard', redirect: { kind: 'clientRequired', to: CLIENTS } }),
  r('general', '/profile', 'Profile', undefined, { icon: 'user', hidden: true, screen: 'profile' }),
  r('general', '/reset-password', 'Reset password', undefined, { type: 'RESTRICTED', layout: false, cache: false, hidden: true, screen: 'resetPassword' }),
  r('general', '/forgot-password', 'Forgot password', undefined, { type: 'RESTRICTED', layout: false, cache: false, hidden: true, screen: 'forgotPassword' }),
  r('general', '/print-record', 'Print record', [PRIV.printRecord], {
    layout: false,
    cache: false,
    hidden: true,
    screen: 'printRecord',
    description: 'A printable record of a visit for the visitor and the front desk.',
  }),
  r('general', FORBIDDEN, 'Access denied', undefined, { type: 'PUBLIC', layout: false, cache: false, hidden: true, screen: 'forbidden' }),
];
