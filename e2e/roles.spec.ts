// Access administration (issue 11): a tenant administrator creates a role, ticks privileges in one division and
// puts a new operator in a group with that role; the operator sees exactly that screen and that division's rows;
// taking the privilege away takes the screen away on the operator's next navigation, without a new sign-in.
import { expect, test, type Page } from './fixtures';
import { apiCall, bearer, signIn, shot, go } from './helpers';

const api = async (page: Page, method: string, path: string, data?: unknown) => apiCall(page.request, await bearer(page), method, path, data);

test('a role ticked in one division, through a group, reaches the operator and is taken away again', async ({ browser }) => {
  const admin = await browser.newPage();
  await signIn(admin, 'harbour', { at: '/manage/roles' });
  await expect(admin.getByTestId('roles')).toBeVisible();
  await shot(admin, 'roles-1440');
  await api(admin, 'POST', '/event/manage/roles', { name: 'Ward viewers', code: 'ward-viewers' });
  const role = (await api(admin, 'GET', '/event/manage/roles?q=ward-viewers')).items[0];
  const divisions = (await api(admin, 'GET', '/event/manage/divisions')).items as { id: number; name: string; parentId: number | null }[];
  const branch = divisions.find((d) => d.parentId !== null)!;
  await api(admin, 'POST', `/event/manage/roles/${role.id}/assign-privileges`, {
    privileges: [
      { code: '0.1', divisionId: null },
      { code: '0.3.1.0', divisionId: branch.id },
    ],
  });
  const op = await api(admin, 'POST', '/event/manage/operators', { username: 'ward-clerk', name: 'Ward Clerk', password: 'Ward-clerk-1' });
  await api(admin, 'POST', '/event/manage/operator-groups', { name: 'Ward clerks', members: [op.id], grants: [{ roleId: role.id, divisionId: null }] });

  const clerk = await browser.newPage();
  await signIn(clerk, 'ward-clerk', 'Ward-clerk-1');
  await go(clerk, '/manage/identities');
  await expect(clerk.getByTestId('identities')).toBeVisible();
  const list = await api(clerk, 'GET', '/event/manage/identities?size=500');
  expect(list.items.length).toBeGreaterThan(0);
  const allowed = new Set([branch.id, ...divisions.filter((d) => d.parentId === branch.id).map((d) => d.id)]);
  expect(list.items.every((i: { divisionId: number }) => allowed.has(i.divisionId))).toBe(true);
  await expect(clerk.getByRole('link', { name: 'Roles' })).toHaveCount(0);

  // the privilege taken away: the next navigation follows, no new sign-in
  await api(admin, 'POST', `/event/manage/roles/${role.id}/assign-privileges`, { privileges: [{ code: '0.1', divisionId: null }] });
  const sidebar = clerk.getByTestId('sidebar').getByRole('link', { name: 'Identities' }); // the open-views bar links it too
  await expect(sidebar).toHaveCount(1);
  await clerk.getByRole('link', { name: 'Dashboard' }).first().click(); // an in-console navigation, no reload
  await expect(sidebar).toHaveCount(0);
  await admin.setViewportSize({ width: 390, height: 844 });
  await go(admin, '/manage/operator-groups');
  await shot(admin, 'operator-groups-390');
});
