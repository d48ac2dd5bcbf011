// What a pattern violation says (contract/resources/derive.ts structOf): the format, in the words of the field's help.
import { fill, sentenceValue, type Sentence } from '../messages';

/** The start of a pattern violation that names the format (the format part of its field's help follows). */
export const PATTERN_PREFIX = 'is not in the expected form: ';
/**
 * Issue 50: what a pattern violation says of the format: the help up to its first ';' (what follows is no format:
 * "…; mailed only when the server has an SMTP server"), its first letter small unless it is an abbreviation ("HH:mm",
 * "IPv4"). "E-mail to must be written as: Addresses separated by commas…" reads "E-mail to is not in the expected
 * form: addresses separated by commas or new lines (at most 20)".
 */
export function formatOfHelp(help: string): string {
  const format = help.split(';')[0].trim();
  return /^[A-Z][a-z]/.test(format) ? format.charAt(0).toLowerCase() + format.slice(1) : format;
}

/**
 * A pattern violation (issue 48): "is not in the expected form: {format}", the format part of the field's help as a
 * sentence value carrying the help's catalogue key (`resource.<name>.help.<field>`), so the console says the format in
 * the operator's language from the declaration's zh-CN (src/i18n/violations.ts); no key where none is known.
 */
export function patternSaid(help: string, helpKey: string | undefined): Sentence {
  const format = formatOfHelp(help);
  return fill(
    'text.notInForm',
    'is not in the expected form: {format}',
    helpKey ? sentenceValue('format', { message: format, code: helpKey, values: {} }) : { format },
  );
}
