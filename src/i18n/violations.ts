// Violation messages (contract/primitives.ts, the catalogue's own messages) in the console's language. The server
// and the schemas speak English; the form shows "<label> <message>" and looks the message up here. A violation the
// server or the contract said with values carries its key and values (issue 48: `record.notYoursToUse`, `text.tooLong`),
// said by the key: no message is parsed back apart.
import { CATALOGUE, PATTERN_PREFIX, fillTemplate, formatDate, formatOfHelp, type Violation } from '../../contract';
import { declarationEntries } from './catalogue';
import { saySentence, type Locale } from './index';
import { zhViolationSentences } from './violationSentences';

/** The console's own fixed messages of a field (src/ui/DateTimeField.tsx), by their English. The server's violations and
 *  the contract's are said by their key (zhViolationSentences, ./sentences.ts), never found by their English (issue 48). */
export const zhViolations: Record<string, string> = {
  'is not a date and time (e.g. 28 Nov 2026 14:05)': '不是日期和时间（例如 2026年11月28日 14:05）',
  'is not a time in this time zone: the clocks skip it': '在此时区不存在：时钟跳过了这个时间',
};

export { zhViolationSentences };

let byEnglish: Map<string, string> | null = null;
/** The catalogue's own messages (help, rules) by their English text → derived key. A field's uniqueMessage is not
 *  among them: the server sends it with its catalogue key (server/crud/checks.ts alreadyUsed, issue 48). */
function catalogueMessageKeys(): Map<string, string> {
  if (byEnglish) return byEnglish;
  byEnglish = new Map();
  for (const d of CATALOGUE) {
    for (const [k, v] of Object.entries(declarationEntries(d))) {
      if (/\.(help|rule)\./.test(k) && !byEnglish.has(v)) byEnglish.set(v, k);
      // a pattern's violation says the format part of the help (contract formatOfHelp)
      if (/\.help\./.test(k) && !byEnglish.has(formatOfHelp(v))) byEnglish.set(formatOfHelp(v), `${k}#format`);
    }
  }
  return byEnglish;
}

/** A violation in `loc`: by its key when the server said it with one, else its message looked up; unknown messages
 *  stay as they are. `cat` looks up a catalogue key. */
export function violationText(
  said: string | Pick<Violation, 'message' | 'code' | 'values'>,
  loc: Locale,
  cat: (key: string, english: string) => string,
): string {
  // issue 50: a day in a message is said as the screens say days ("(2026-12-02)" stood beside a field showing "2 Dec 2026")
  const day = (text: string) => text.replace(/\b(\d{4}-\d{2}-\d{2})\b/g, (d) => formatDate(d, loc));
  if (typeof said !== 'string' && said.code && said.values) {
    // a catalogue declaration's own sentence (a field's uniqueMessage): its catalogue key, said from the declaration's zh-CN
    if (said.code.startsWith('resource.')) return loc === 'en' ? said.message : cat(said.code, said.message);
    const template = zhViolationSentences[said.code];
    if (!template) return saySentence({ message: said.message, code: said.code, values: said.values }, loc);
    return day(loc === 'en' ? said.message : fillTemplate(template, said.values));
  }
  const message = day(typeof said === 'string' ? said : said.message);
  if (loc === 'en') return message;
  if (zhViolations[message]) return zhViolations[message];
  if (message.startsWith(PATTERN_PREFIX)) {
    const help = message.slice(PATTERN_PREFIX.length);
    const key = catalogueMessageKeys().get(help);
    // the format part of the help's translation (up to its first semicolon, as in English)
    const said = key?.endsWith('#format') ? cat(key.slice(0, -'#format'.length), help).split(/[;；]/)[0].trim() : key ? cat(key, help) : help;
    return `格式应为：${said}`;
  }
  const key = catalogueMessageKeys().get(message);
  return key ? cat(key, message) : message;
}

/** "<label> <message>" in English, "<label><message>" in Chinese. */
export const labelled = (label: string, message: string, loc: Locale) => (loc === 'en' ? `${label} ${message}` : `${label}${message}`);
