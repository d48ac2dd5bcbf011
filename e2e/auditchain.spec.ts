// Issue 31: the activity report says how far the client's audit chain is verified, and its verifiable export is the
// chain with each record's hash and the signed head (checked offline by `npm run audit -- verify-export`,
// server/audit/chain.test.ts). As the auditor, who holds the activity report. Issue 45: the last head witnessed
// outside the database is shown, and the public key is a PEM file to save.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { signIn } from './helpers';

test('the auditor sees the chain verified and downloads the verifiable export and the public key', async ({ page }) => {
  await signIn(page, 'auditor', { at: '/report/activity' });
  const status = page.getByTestId('audit-chain-status');
  // on a fresh server nothing may be recorded yet; either way the chain is checked and says so
  await expect(status).toContainText(
    /Chain verified up to record \d+ \(.+\): (\d+ records as they were|1 record as it was) written\.|No changes recorded yet\./,
  );
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-chain-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-client-\d+-\d{4}-\d\d-\d\d\.ndjson$/);
  const lines = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines[0]).toMatchObject({ format: 'gatehouse-audit-export/1', head: { seq: lines.length - 1, signature: expect.any(String) } });
  expect(lines.at(-1)).toMatchObject({ actor: 'auditor', action: 'export', entity: 'audit', hash: lines[0].head.hash });
  // the export is itself audited: the chain is verified again, up to the export's own record
  await expect(status).toContainText(
    new RegExp(`Chain verified up to record ${lines.length - 1} \\(.+\\): ${lines.length - 1} (records as they were|record as it was) written\\.`),
  );
  // the heads leave the database for a witness (AUDIT_WITNESS_DIR of the test server) within seconds of a write
  const witnessed = page.getByTestId('audit-chain-witnessed');
  await expect(async () => {
    await page.getByRole('button', { name: 'Verify again' }).click();
    await expect(witnessed).toContainText(`Last head witnessed outside the database: record ${lines.length - 1}, signed `, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  const [pem] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-public-key').click()]);
  expect(pem.suggestedFilename()).toBe('gatehouse-audit-public.pem');
  expect(readFileSync((await pem.path())!, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
});
