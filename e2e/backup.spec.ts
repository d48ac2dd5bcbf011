// Server → Backup and restore [0.7.2.0] and auto-backup settings [0.7.2.1], platform privileges: the platform operator
// backs the installation up, a client's data changes, and restoring the backup puts it back; the console says what
// is happening while the server restarts; the restore ends every console session (everyone signs in again, as the
// console warned), and signed in again the page says how the restore went and lists the backup taken just before it.
// A client's administrator has neither screen. On a server of its own: a restore restarts that server's services.
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { API } from '../contract';
import { expect, test } from './fixtures';
import { ownServer, type OwnServer } from './server';
import { signIn, go } from './helpers';

/** A backup upload of which only the first half is sent (the rest never is): how it ended, a status or the socket's error. */
function halfSentUpload(url: string, token: string): Promise<{ status: number } | { error: string }> {
  const body = gzipSync(randomBytes(1024 * 1024)); // (random: it inflates to its own size, no bomb)
  const req = httpRequest(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip', 'transfer-encoding': 'chunked' },
  });
  const ended = new Promise<{ status: number } | { error: string }>((resolve) => {
    req.once('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.once('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
  });
  req.write(body.subarray(0, body.length >> 1));
  return ended;
}

let server: OwnServer;
test.beforeAll(async () => {
  server = await ownServer('backup');
});
test.afterAll(async () => {
  await server?.dispose();
});

test('the platform operator backs up, a client changes, the restore puts it back, and everyone signs in again', async ({ page, request }) => {
  test.setTimeout(180_000);
  const at = (path: string) => `${server.url}${path}`;
  const tokenOf = async (username: string) =>
    (await (await request.post(at('/idp/1.0/login'), { data: { username, password: 'Gatehouse1!' } })).json()).token as string;
  const harbour = { authorization: `Bearer ${await tokenOf('harbour')}` };
  const zones = async () =>
    ((await (await request.get(at('/event/manage/access-zones?size=100'), { headers: harbour })).json()).items as { name: string }[]).map((z) => z.name);

  // the client's administrator holds every code of Harbour, but not this: no entry in the sidebar, the route refused
  await signIn(page, 'harbour', undefined, server.url);
  await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Backup and restore' })).toHaveCount(0);
  await go(page, at('/server/backup-restore'));
  await expect(page.getByTestId('forbidden')).toBeVisible();
  await page.getByTestId('forbidden').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Username')).toBeVisible();

  // the platform operator: no client needed for the installation's backups
  await signIn(page, 'admin', undefined, server.url);
  await go(page, at('/server/backup-restore'));
  await expect(page.getByTestId('backup-restore')).toBeVisible();
  await expect(page.getByText('No backups yet')).toBeVisible();
  await page.getByTestId('backup-take').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Backup taken' }).first()).toBeVisible({ timeout: 60_000 });
  const row = page.getByTestId('backup-row').first();
  await expect(row).toContainText('Taken by hand');
  await expect(row).toContainText('admin');
  // and the installation's history says who took it
  const history = page.getByTestId('platform-history-row');
  await expect(history.first()).toContainText('Backup taken');
  await expect(history.first()).toContainText('admin');

  // after the backup: Harbour adds a zone
  const name = `Restored away ${Date.now().toString(36)}`;
  expect((await request.post(at('/event/manage/access-zones'), { headers: harbour, data: { name, antiPassback: 'off', forgiveMinutes: 0 } })).status()).toBe(
    201,
  );
  expect(await zones()).toContain(name);

  // the restore says what it does to every client before it does it
  await row.getByTestId('backup-restore-button').click();
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(dialog).toContainText('everything changed since is lost');
  // another backup is half uploaded when the restore is asked for: it ends with the old services, kept nowhere
  const parts = () => readdirSync(`${server.dataDir}-backups`).filter((f) => f.endsWith('.part'));
  const upload = halfSentUpload(at(`${API.backups}/upload`), (await page.evaluate(() => localStorage.getItem('jwt')))!);
  await expect.poll(parts).toHaveLength(1);
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByTestId('backup-restoring')).toBeVisible();
  // the services restart with the backup, which ends every console session: this console is asked to sign in again
  await expect(page.getByLabel('Username')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('session-notice')).toBeVisible();
  // so is Harbour's, whose session was in the backup: a session must not outlive a restore
  expect((await request.get(at('/event/manage/access-zones?size=1'), { headers: harbour })).status()).toBe(401);
  harbour.authorization = `Bearer ${await tokenOf('harbour')}`;
  // Harbour's zone added after the backup is gone
  expect(await zones()).not.toContain(name);

  // signed in again, the page says which backup the last restore brought back, and who asked for it
  await signIn(page, 'admin', undefined, server.url);
  await go(page, at('/server/backup-restore'));
  await expect(page.getByTestId('backup-last-restore')).toContainText('Last restore: the backup of');
  await expect(page.getByTestId('backup-last-restore')).toContainText('by admin');
  // the history, read from the restored database: its newest record is the restore (written into it as it opened)
  await expect(history.first()).toContainText('Backup restored');
  await expect(page.getByTestId('backup-row').filter({ hasText: 'Before a restore' })).toHaveCount(1);
  await expect(page.getByTestId('backup-row').filter({ hasText: 'Taken by hand' })).toHaveCount(1);
  // the half-sent upload was refused or cut off, and neither listed nor left as a part file
  const ended = await upload;
  if ('status' in ended) expect(ended.status).toBeGreaterThanOrEqual(400);
  expect(parts()).toEqual([]);
  await expect(page.getByTestId('backup-row')).toHaveCount(2);

  // the auto-backup settings: the catalogue's form, linked from the page, kept across a reload
  await page.getByTestId('backup-auto-link').click();
  const form = page.getByTestId('autoBackup-form');
  await expect(form).toBeVisible();
  await form.getByText('Back up automatically').click();
  await page.locator('#field-hour').fill('5');
  await page.locator('#field-keep').fill('3');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'saved' }).first()).toBeVisible();
  await page.reload();
  await expect(page.locator('#field-hour')).toHaveValue('5');
  await expect(page.locator('#field-keep')).toHaveValue('3');
});
