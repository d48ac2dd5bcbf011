// Violation messages (contract/primitives.ts, the catalogue's own messages) in the console's language. The server
// and the schemas speak English; the form shows "<label> <message>" and looks the message up here. A violation the
// server or the contract said with values carries its key and values (issue 48: `record.notYoursToUse`, `text.tooLong`),
// said by the key: no message is parsed back apart.
import { CATALOGUE, PATTERN_PREFIX, fillTemplate, formatDate, formatOfHelp, type Violation } from '../../contract';
import { declarationEntries } from './catalogue';
import { saySentence, type Locale } from './index';

/** The console's own fixed messages of a field (src/ui/DateTimeField.tsx), by their English. The server's violations and
 *  the contract's are said by their key (zhViolationSentences, ./sentences.ts), never found by their English (issue 48). */
export const zhViolations: Record<string, string> = {
  'is not a date and time (e.g. 28 Nov 2026 14:05)': '不是日期和时间（例如 2026年11月28日 14:05）',
  'is not a time in this time zone: the clocks skip it': '在此时区不存在：时钟跳过了这个时间',
};

/** zh-CN of the contract's violations said with values (contract/primitives.ts, derive.ts, elevatorMasks.ts: fill), by
 *  key; `{name}` placeholders as in the English (i18n.test.ts reads every fill( of contract/ and fails on a key without
 *  one here or with other placeholders). */
export const zhViolationSentences: Record<string, string> = {
  'text.tooLong': '不能超过 {max} 个字符',
  'text.tooShort': '至少需要 {min} 个字符',
  'date.yearOutside': '必须介于 {min} 和 {max} 之间',
  'number.tooSmall': '不能小于 {min}',
  'number.tooLarge': '不能大于 {max}',
  'image.tooLarge': '必须是不超过 {size} 的图片',
  'list.tooLong': '最多 {max} 项',
  'day.beforeToday': '不能早于今天（{today}）',
  'day.beyondToday': '必须在今天起 {days} 天之内',
  'day.beyondFirstDay': '必须在开始日期起 {days} 天之内',
  'floors.rangeBackwards': '包含倒序的范围（{range}）',
  'floors.aboveHighest': '楼层号不能大于 {max}',
  'day.beforeFirstDay': '不能早于开始日期',
  'password.tooFewClasses': '必须至少包含以下 {n} 类字符：小写字母、大写字母、数字、符号',
  'list.tooManyAddresses': '最多 {max} 个地址',
  'moment.beyondHistory': '必须在最近 {days} 天之内',
  'day.mustBeToday': '必须是今天',
  'day.withinYear': '必须在一年之内',
  'list.repeatedInForm': '在此表单中重复',
  'floors.notList': '必须是楼层号和范围，例如 1-3, 5',
  // a custom card format's layout (contract/cardFormat.ts formatViolations)
  'cardFormat.bitsRange': '必须是 {min} 到 {max} 之间的整数',
  'cardFormat.outsideBits': '必须位于 {bits} 位之内',
  'cardFormat.fieldTooLong': '不支持超过 {max} 位的字段',
  'cardFormat.overlaps': '与 {other} 重叠',
  'cardFormat.parityIncludesItself': '不能包含其自身的校验位',
  'username.allowedCharacters': '只能使用字母、数字和 . _ @ -',
  'visitorCredential.prefixForm': '格式应为：大写字母、数字和 -',
  'visitorCredential.wouldRunPast': '会超过 {last}：请使用更多位数或减少凭证数量',
  // the contract's fixed violations (contract/primitives.ts FIXED_SAID, schemas.ts): said by key, never found by their English
  'value.required': '为必填项',
  'text.notText': '必须是文本',
  'text.controlCharacters': '不能包含控制字符',
  'text.loneSurrogate': '不能包含损坏（未配对代理项）的字符',
  'date.notDate': '必须是日期（YYYY-MM-DD）',
  'date.notReal': '不是有效的日历日期',
  'number.notWhole': '必须是整数',
  'number.notPositiveWhole': '必须是正整数',
  'number.notNumber': '必须是数字',
  'timeZone.notZone': '必须是时区',
  'timeZone.unknown': '不是已知的时区（例如 Asia/Shanghai）',
  'image.notImage': '必须是图片',
  'image.notDataUrl': '必须是 PNG、JPEG、WebP 或 GIF 图片（data: URL，而不是链接）',
  'list.notList': '必须是列表',
  'text.wrongFormat': '格式不正确',
  'dateTime.notDateTime': '必须是日期和时间（ISO 8601，含时区）',
  'dateTime.notIsoInstant': '必须是含时区的 ISO 8601 日期时间',
  'epoch.notTime': '必须是自 1970 年起的毫秒数',
  'epoch.before1970': '不能早于 1970 年',
  'epoch.tooFarAhead': '离现在太远',
  'data.notPlain': '必须是普通数据（文本、数字、是/否、列表和对象）',
  'file.notFile': '必须是文件',
  'file.notDataUrl': '必须是在此选择的文件（data: URL，而不是链接）',
  'file.empty': '不能为空',
  'file.tooLarge': '必须是不超过 {size} 的文件',
  'image.cut': '必须是完整的图片：文件被截断或已损坏',
  'image.notImageContent': '必须是 PNG、JPEG、WebP 或 GIF 图片（其内容并不是）',
  'number.outsideSafe': '必须是介于 {min} 和 {max} 之间的数字',
  'data.tooLarge': '数据不能超过 {max} 个字符',
  'data.tooDeep': '嵌套过深（最多 {max} 层）',
  'data.badKey': '有一个键{problem}',
  'value.notYesNo': '必须是“是”或“否”',
  'value.notObject': '必须是对象',
  'value.notAllowed': '不是允许的值之一',
  'value.wrongValue': '值不正确',
  'value.wrongLength': '长度不正确',
  'value.tooSmall': '太小',
  'value.tooLarge': '太大',
  'value.notAllowedHere': '不允许',
  'timeZone.unknownShort': '不是已知的时区',
  'value.invalid': '无效',
  'value.uncheckable': '无法检查：嵌套过深或过大',
  'timeZone.notZoneOrNull': '必须是时区（或为 null，表示不设自己的时区）',
  'timeZone.blank': '必须是时区（不设自己的时区请发送 null）',
  'theme.notColour': '必须是颜色，例如 #2d72d2',
  'list.empty': '至少要指定一项',
  'file.notMediaType': '必须是媒体类型，例如 image/png',
  'file.notBase64': '必须是 base64',
};

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
