// Issue 29: a phone field's placeholder is an example number of the current client's country, the same on every
// screen. The client record holds its time zone; the zone names the country (countries-and-timezones) and the
// country its calling code and the shape of a mobile number (libphonenumber-js). One place decides: phonePlaceholder.
import { getCountryForTimezone } from 'countries-and-timezones';
import { getExampleNumber, type CountryCode } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';

/** The country a time zone belongs to ('Asia/Kuala_Lumpur' → 'MY'); null for UTC and zones of no one country. */
export function countryOfZone(timeZone: string | null | undefined): string | null {
  if (!timeZone) return null;
  return getCountryForTimezone(timeZone)?.id ?? null;
}

/** What a phone field shows as its example: '+60 12-345 6789' for a client in Kuala Lumpur; a neutral '+' shape
 *  when the zone names no country (UTC). */
export function phonePlaceholder(timeZone: string | null | undefined): string {
  const country = countryOfZone(timeZone);
  const example = country ? getExampleNumber(country as CountryCode, examples) : undefined;
  return example ? example.formatInternational() : '+00 000 000 000';
}
