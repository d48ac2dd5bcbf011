// Card formats (issue 12): the form tests a raw value with the layout as typed — a 26-bit value decodes to its
// facility code and card number, the same value with a bit flipped says which parity bit does not match.
import { expect, test } from './fixtures';
import { STANDARD_FORMATS, encode } from '../contract/cardFormat';
import { shot, signIn } from './helpers';

test('the card format form decodes a raw value with its layout, and names a parity that does not match', async ({ page }) => {
  await signIn(page, 'admin', { client: 'Northwind Logistics', at: '/hardware/card-format/add' });
  await page.locator('#field-name').fill('Test 26');
  // the 26-bit layout with its two parity bits
  const h10301 = STANDARD_FORMATS.find((f) => f.bits === 26)!;
  for (const [i, p] of h10301.parity.entries()) {
    await page.getByTestId('add-parity').click();
    await page.locator(`[id="field-parity[${i}].bit"]`).fill(String(p.bit));
    await page.locator(`[id="field-parity[${i}].type"]`).selectOption(p.type);
    await page.locator(`[id="field-parity[${i}].overStart"]`).fill(String(p.over.start));
    await page.locator(`[id="field-parity[${i}].overLength"]`).fill(String(p.over.length));
  }
  const bits = encode(h10301, 12, 34567);
  const panel = page.getByTestId('card-format-test');
  await panel.locator('#card-format-raw').fill(`0x${BigInt(`0b${bits}`).toString(16)}`);
  await panel.getByTestId('card-format-decode').click();
  await expect(panel.getByTestId('card-format-result')).toHaveText('Facility code 12, card number 34567');
  await panel.locator('#card-format-raw').fill(`${bits.slice(0, 25)}${bits[25] === '1' ? '0' : '1'}`);
  await panel.getByTestId('card-format-decode').click();
  await expect(panel.getByTestId('card-format-result')).toContainText('parity bit 25 does not match');
  await shot(page, 'card-format-test-1440');
});
