// Violation messages (contract/primitives.ts, the catalogue's own messages) in the console's language. The server
// and the schemas speak English; the form shows "<label> <message>" and looks the message up here. A violation the
// server or the contract said with values carries its key and values (issue 48: `record.notYoursToUse`, `text.tooLong`),
// said by the key: no message is parsed back apart.
import { fillTemplate, formatDate, type SentenceValues, type Violation } from '../../contract';
import { saySentence, type Locale } from './index';
import { zhViolationSentences } from './violationSentences';

/** The console's own fixed messages of a field (src/ui/DateTimeField.tsx), by their English. The server's violations and
 *  the contract's are said by their key (zhViolationSentences, ./sentences.ts), never found by their English (issue 48). */
export const zhViolations: Record<string, string> = {
  'is not a date and time (e.g. 28 Nov 2026 14:05)': '不是日期和时间（例如 2026年11月28日 14:05）',
  'is not a time in this time zone: the clocks skip it': '在此时区不存在：时钟跳过了这个时间',
};

export { zhViolationSentences };

/** A sentence's values in `loc`: a value that is a catalogue declaration's own words (`<name>:code` a `resource.` key:
 *  a pattern's format, from the field's help) said from the catalogue, a help by its format part (up to its first
 *  semicolon, as in English: contract formatOfHelp). Other values stay as the server gave them. */
function catalogueValues(values: SentenceValues, cat: (key: string, english: string) => string): SentenceValues {
  const out = { ...values };
  for (const [k, code] of Object.entries(values)) {
    if (!k.endsWith(':code') || typeof code !== 'string' || !code.startsWith('resource.')) continue;
    const name = k.slice(0, -':code'.length);
    const said = cat(code, String(values[name] ?? ''));
    out[name] = code.includes('.help.') ? said.split(/[;；]/)[0].trim() : said;
  }
  return out;
}

/** A violation in `loc`: by its key when the server or the contract said it with one (a catalogue declaration's own
 *  words by their catalogue key: a uniqueMessage, a rule), else shown as it came (the console's own field words
 *  excepted): no message is looked up by its English (issue 48). `cat` looks up a catalogue key. */
export function violationText(
  said: string | Pick<Violation, 'message' | 'code' | 'values'>,
  loc: Locale,
  cat: (key: string, english: string) => string,
): string {
  // issue 50: a day in a message is said as the screens say days ("(2026-12-02)" stood beside a field showing "2 Dec 2026")
  const day = (text: string) => text.replace(/\b(\d{4}-\d{2}-\d{2})\b/g, (d) => formatDate(d, loc));
  if (typeof said !== 'string' && said.code && said.values) {
    // a catalogue declaration's own sentence (a field's uniqueMessage, a rule): its catalogue key, said from the declaration's zh-CN
    if (said.code.startsWith('resource.')) return loc === 'en' ? said.message : cat(said.code, said.message);
    const template = zhViolationSentences[said.code];
    if (!template) return saySentence({ message: said.message, code: said.code, values: said.values }, loc);
    return day(loc === 'en' ? said.message : fillTemplate(template, catalogueValues(said.values, cat)));
  }
  const message = day(typeof said === 'string' ? said : said.message);
  if (loc === 'en') return message;
  return zhViolations[message] ?? message;
}

/** "<label> <message>" in English, "<label><message>" in Chinese. */
export const labelled = (label: string, message: string, loc: Locale) => (loc === 'en' ? `${label} ${message}` : `${label}${message}`);
