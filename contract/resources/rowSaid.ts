// The catalogue's own fixed violations of rows and days (contract/resources/derive.ts), each a sentence with its key
// (issue 48): the server and the console's forms carry the key, the console says it by the key (src/i18n/violations.ts).
import { fill } from '../messages';

export const ROW_SAID = {
  repeatedInForm: fill('list.repeatedInForm', 'is repeated in this form', {}),
  mustBeToday: fill('day.mustBeToday', 'must be today', {}),
  withinYear: fill('day.withinYear', 'must be within a year', {}),
};
