// Issue 29's phone placeholder, apart from the session's other selectors: it needs libphonenumber-js and
// countries-and-timezones (~200 KB), which only the forms with a phone field load, not the console's first screen.
import { phonePlaceholder } from '../contract/phone';
import type { SessionSnapshot } from './session';

/** Issue 29: every phone field's placeholder, an example number of the selected client's country (its time zone names
 *  it); without a client, the user's own zone's. */
export const selectPhonePlaceholder = (s: SessionSnapshot): string => phonePlaceholder(s.context.user?.clientTimezone ?? s.context.user?.timezone);
