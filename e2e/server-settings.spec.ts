// The Server section's settings, each a catalogue singleton (contract/resources/settings.ts), set on its screen by the
// Harbour administrator and seen where it acts: floor plan properties [0.7.3.1] on the floor plan monitor (the plan it
// opens with, pins without names, large pins), company ID [0.7.4.0] at the top of a printed visit record, central
// properties [0.7.3.0] kept across a reload and refused out of range on the field. (What retention deletes is
// proven against the database in server/resources/settings.test.ts.)
import { expect, test } from './fixtures';
import { bearer, pick, shot, signIn, go } from './helpers';

/** A one-pixel PNG: enough of a picture for the plan's pins to be drawn on. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test('the Harbour administrator sets the floor plan monitor, the company ID and record keeping, and each shows where it acts', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  await signIn(page, 'harbour');
  const headers = await bearer(page);
  const doors = (await (await page.request.get('/event/manage/doors', { headers })).json()).items as { id: number; name: string }[];
  const plan = await (
    await page.request.post('/event/manage/floor-plans', {
      headers,
      data: { name: `Zz quay ${stamp}`, image: PNG, doors: [{ doorId: doors[0].id, x: 500, y: 500 }] },
    })
  ).json();
  expect(plan.id).toBeGreaterThan(0);
  await page.request.post('/event/manage/floor-plans', { headers, data: { name: `Aa first ${stamp}`, image: PNG, doors: [] } });

  try {
    // floor plan properties: the monitor opens with the chosen plan (not the first by name), pins large and unnamed
    await go(page, '/server/central-properties/floor-plan');
    const fp = page.getByTestId('floorPlanProperties-form');
    await pick(page, 'defaultPlanId', `Zz quay ${stamp}`);
    await fp.getByText('Door names on the pins').click();
    await fp.getByLabel('Pin size').selectOption('large');
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Floor plan properties saved' }).first()).toBeVisible();
    await go(page, '/monitor/floor-plan');
    const monitor = page.getByTestId('floor-plan-monitor');
    await expect(monitor.getByTestId('floor-plan-select')).toHaveValue(String(plan.id));
    await expect(monitor.getByTestId('floor-plan-frame')).toHaveAttribute('data-pin-size', 'large');
    await expect(monitor.getByTestId('floor-plan-pin')).toHaveCount(1);
    await expect(monitor.getByTestId('floor-plan-pin-label')).toHaveCount(0);
    // the name is still there for whoever hovers or reads the list
    await expect(monitor.getByTestId('floor-plan-pin')).toHaveAttribute('aria-label', new RegExp(doors[0].name));
    await expect(monitor.getByTestId('floor-plan-door')).toHaveCount(1);

    // company ID: a site code out of range is refused on its field, then the name and code print on a visit record
    await go(page, '/server/company-id');
    const cid = page.getByTestId('companyId-form');
    await cid.getByLabel('Company name').fill(`Harbour Quay ${stamp}`);
    await cid.getByLabel('Site code').fill('70000');
    await page.getByTestId('form-save').click();
    await expect(cid.getByText(/65535/).first()).toBeVisible();
    await expect(cid.getByLabel('Company name')).toHaveValue(`Harbour Quay ${stamp}`);
    await cid.getByLabel('Site code').fill('4242');
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Company ID saved' }).first()).toBeVisible();
    await shot(page, 'server-company-id');
    const visitor = await (
      await page.request.post('/visitor/1.0/visitors', {
        headers,
        data: {
          firstName: 'Quinn',
          lastName: `Print ${stamp}`,
          hostName: 'Harper Harbour',
          purpose: 'meeting',
          visitDate: new Date().toISOString().slice(0, 10),
        },
      })
    ).json();
    expect(visitor).toMatchObject({ issuer: `Harbour Quay ${stamp}`, siteCode: 4242 });
    await page.goto(`/print-record?id=${visitor.id}`);
    await expect(page.getByTestId('print-issuer')).toHaveText(`Harbour Quay ${stamp} · Visit record · Site code 4242`);

    // central properties: kept for 3650 days, still so after a reload; 3651 is refused on the field
    await go(page, '/server/central-properties/general');
    const cp = page.getByTestId('centralProperties-form');
    await cp.getByLabel('Keep events for (days)').fill('3651');
    await page.getByTestId('form-save').click();
    await expect(cp.getByText(/3650/).first()).toBeVisible();
    await cp.getByLabel('Keep events for (days)').fill('3650');
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Central properties saved' }).first()).toBeVisible();
    await page.reload();
    await expect(cp.getByLabel('Keep events for (days)')).toHaveValue('3650');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'server-central-properties-390');
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  } finally {
    // Harbour's settings back to their defaults for the specs after this one
    await page.request.put('/central/1.0/central-properties/floor-plan', { headers, data: { defaultPlanId: null, showDoorNames: true, pinSize: 'medium' } });
    await page.request.put('/central/1.0/company-id', { headers, data: { companyName: null, siteCode: null } });
    await page.request.put('/central/1.0/central-properties/general', { headers, data: { eventRetentionDays: 0, visitorRetentionDays: 0 } });
  }
});
