// Sentences the server builds with values (`fill('That person is not inside {zone}', { zone })` in server/), said in
// the reader's language. The API answers in English (integrators read it); the console recognises a sentence by the
// fixed words of its template and fills the translated template with the values it found, each value translated
// too when it is a word the console knows (a resource's label, a state, "operator grants"). Templates with the most
// fixed text are tried first, so "Still used by {what} in this division: …" wins over "Still used by {what}: …".
// Values like names, zones and addresses stay as the server gave them.
import { CATALOGUE } from '../../contract';
import { catKey } from './catalogue';
import { IAM_REFUSALS_ZH } from '../../contract/iam';
import { zhOsdpSentences } from './osdp';

/** zh-CN templates of the server's sentences with values (keys: the English template, as written in server/). */
export const zhSentences: Record<string, string> = {
  // issue 49: an identity provider's sign-in refused, with values (contract/iam.ts)
  ...Object.fromEntries(Object.entries(IAM_REFUSALS_ZH).filter(([en]) => en.includes('{'))),
  // issue 46: the edge's and the hub's words about a re-pair (./osdp.ts)
  ...zhOsdpSentences,
  '{what} not found': '找不到该{what}',
  'Its owner no longer holds privilege {code} in this client: nothing was made': '其所有者在本客户中已不再拥有权限 {code}：未生成任何内容',
  'Needs privilege {code}': '需要权限 {code}',
  'This handover was already acknowledged by {name} at {at}': '此交接已由 {name} 于 {at} 确认',
  'You may not save a {what} of this kind': '您不能保存此类{what}',
  'You may add a {what} only for yourself': '您只能为自己新增{what}',
  '{action} is no longer possible: this {what} is now “{state}”.': '无法再{action}：此{what}当前为“{state}”。',
  'The day of this visit ({day}) has passed: decline the request, and the host may ask again.':
    '此次来访的日期（{day}）已过：请拒绝该申请，被访人可以重新申请。',
  'Some {what} were not found; nothing was deleted': '部分{what}未找到；未删除任何记录',
  'This door is held locked by threat level {level}: lower it first': '此门因威胁等级“{level}”保持锁定：请先降低威胁等级',
  '{reader} is not on a Gatehouse Edge controller: there is no OSDP reader to pair': '{reader} 不在 Gatehouse Edge 控制器上：没有可配对的 OSDP 读卡器',
  'No controller at {ip}': '{ip} 上没有控制器',
  // backups on PostgreSQL (server/backup/postgres.ts): its client tools missing or older than the server
  'This server’s database is PostgreSQL {major}, and the only pg_dump here is older ({older}): it cannot back the database up. To take and restore backups here, install PostgreSQL {major}’s client tools (on Debian and Ubuntu: apt install postgresql-client-{major}; elsewhere the same major version’s pg_dump, pg_restore and psql on the PATH) and start Gatehouse again.':
    '此服务器的数据库是 PostgreSQL {major}，而这里只有较旧的 pg_dump（{older}）：它无法备份该数据库。要在此进行备份和恢复，请安装 PostgreSQL {major} 的客户端工具（Debian 和 Ubuntu：apt install postgresql-client-{major}；其他系统：将同一主版本的 pg_dump、pg_restore 和 psql 放在 PATH 中），然后重新启动 Gatehouse。',
  'This server’s database is PostgreSQL {major}, and pg_dump, pg_restore and psql were not found (on the PATH or in /usr/lib/postgresql/{major}/bin). To take and restore backups here, install PostgreSQL {major}’s client tools (on Debian and Ubuntu: apt install postgresql-client-{major}; elsewhere the same major version’s pg_dump, pg_restore and psql on the PATH) and start Gatehouse again.':
    '此服务器的数据库是 PostgreSQL {major}，但未找到 pg_dump、pg_restore 和 psql（在 PATH 或 /usr/lib/postgresql/{major}/bin 中）。要在此进行备份和恢复，请安装 PostgreSQL {major} 的客户端工具（Debian 和 Ubuntu：apt install postgresql-client-{major}；其他系统：将同一主版本的 pg_dump、pg_restore 和 psql 放在 PATH 中），然后重新启动 Gatehouse。',
  'The backup could not be taken: {problem}': '无法进行备份：{problem}',
  'That person is not inside {zone}': '此人不在 {zone} 内',
  'This source is already shelved until {until}': '此报警源已搁置至 {until}',
  'Still used by 1 {what}: change or delete it first': '仍被 1 个{what}使用：请先修改或删除它',
  'Still used by {n} {what}: change or delete them first': '仍被 {n} 个{what}使用：请先修改或删除它们',
  'Still used by {what}: change or delete them first': '仍被{what}使用：请先修改或删除它们',
  'Still used by {what} in this division: change or delete them first': '此部门中仍有{what}在使用：请先修改或删除它们',
  'Someone else changed this {what} since you opened it. Reload it to see their changes; your typed values are kept.':
    '您打开此{what}后，其他人已修改了它。请重新加载以查看其更改；您输入的值已保留。',
  'License limit reached: {seat} seats {seats} ({used} in use, {free} free); adding {adding} would exceed it. Ask for a license with more {seat} seats.':
    '已达到许可证上限：{seat}席位 {seats} 个（已用 {used} 个，空闲 {free} 个）；再添加 {adding} 个将超出上限。请申请更多{seat}席位的许可证。',
  '{name} is already {state}': '{name} 已{state}',
  '{name} matches the visitor watchlist: let them in or refuse them first': '{name} 与访客观察名单匹配：请先放行或拒绝',
  '{name} was refused after the watchlist check': '{name} 经观察名单核查后已被拒绝',
  '{name} has no key to revoke': '{name} 没有可吊销的密钥',
  '{name} has no edge key to revoke': '{name} 没有可吊销的 Edge 控制器密钥',
  'Only a visitor who is {state} can be {done}': '只有{state}的访客才能{done}',
  'Template {name} puts identities in a division you may not add identities to': '模板“{name}”会将身份放入您无权添加身份的部门',
  '{name} is in force: set its end to now first, and its doors go back to their own mode': '{name} 正在生效：请先将其结束时间设为现在，其门将恢复各自的模式',
  // a door command refused for the door's state (contract/doors.ts): the door's name, then the reason
  '{door} is already locked.': '{door} 已锁定。',
  '{door} is already unlocked.': '{door} 已解锁。',
  '{door} is unlocked until someone locks it: lock it instead.': '{door} 处于解锁状态，直到有人锁定它：请改为锁定。',
  '{door} is forced open while its lock reports locked; lock it again only to re-send the command.':
    '{door} 被强行打开，但其门锁报告已锁定；仅在需要重新发送命令时再次锁定。',
  '{door} is forced open: send someone to secure it first.': '{door} 被强行打开：请先派人将其关好。',
  '{door} is held open already.': '{door} 已处于常开状态。',
  '{door} is offline: no command reaches it until it is back.': '{door} 离线：恢复在线前任何命令都无法送达。',
  '{door} reports tampering: keep it locked until it is checked.': '{door} 报告被破坏：检查前请保持锁定。',
  // values that are words
  identities: '身份',
  doors: '门',
  readers: '读卡器',
  operators: '操作员',
  armed: '布防',
  disarmed: '撤防',
  expected: '预约',
  'on site': '在场',
  'signed in': '签到',
  'signed out': '签退',
  'operator grants': '操作员授权',
  'operator grant': '操作员授权',
  'operator-group grants': '操作员组授权',
  'operator-group grant': '操作员组授权',
  'role privileges': '角色权限',
  'role privilege ticked': '已勾选的角色权限',
  'role privileges ticked': '已勾选的角色权限',
  'operator-group members': '操作员组成员',
  'events in the history': '历史事件',
  alarms: '警报',
  credentials: '凭证',
  visitors: '访客',
  'access groups': '门禁组',
  'other records': '其他记录',
};

const PLACEHOLDER = /\{(\w+)\}/g;
/** Placeholders that only ever hold a count. */
const COUNTS = new Set(['n', 'seats', 'used', 'free', 'adding', 'count', 'max']);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Template {
  english: string;
  re: RegExp;
  names: string[];
  fixed: number;
}
function compile(english: string): Template | null {
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const m of english.matchAll(PLACEHOLDER)) {
    source += escape(english.slice(last, m.index));
    const name = m[1];
    source += names.includes(name) ? `\\k<${name}>` : COUNTS.has(name) ? `(?<${name}>\\d+)` : `(?<${name}>.+?)`;
    names.push(name);
    last = m.index! + m[0].length;
  }
  if (!names.length) return null;
  source += escape(english.slice(last));
  return { english, re: new RegExp(`^${source}$`, 's'), names: [...new Set(names)], fixed: english.replace(PLACEHOLDER, '').length };
}

const compiled = new Map<Record<string, string>, Template[]>();
function templatesOf(dict: Record<string, string>): Template[] {
  let ts = compiled.get(dict);
  if (!ts) {
    ts = Object.keys(dict)
      .map(compile)
      .filter((t): t is Template => t !== null)
      .sort((a, b) => b.fixed - a.fixed);
    compiled.set(dict, ts);
  }
  return ts;
}

let labels: Map<string, string> | null = null;
/** Every resource's label (one and many, lower case) → its catalogue key. */
function labelKeys(): Map<string, string> {
  if (labels) return labels;
  labels = new Map();
  for (const d of CATALOGUE) {
    labels.set(d.label.one.toLowerCase(), catKey.one(d.name));
    labels.set(d.label.many.toLowerCase(), catKey.many(d.name));
  }
  return labels;
}

export interface Dictionaries {
  /** the server's templates in the language (English template → translated) */
  templates: Record<string, string>;
  /** the text namespace of the language (screen strings and these templates): the words a value may be */
  text: Record<string, string>;
  /** a catalogue label by key, in the language (English fallback) */
  catalogue: (key: string) => string | undefined;
  /** fills a translated template with values */
  fill: (template: string, vars: Record<string, string>) => string;
}

/** A value in the language when it is a word the console knows ("doors", "3 doors", "2 grants, 1 role"), else as given. */
function word(value: string, d: Dictionaries): string {
  if (value.includes(', '))
    return value
      .split(', ')
      .map((v) => word(v, d))
      .join('、');
  const counted = /^(\d+) (.+)$/.exec(value);
  if (counted) return `${counted[1]} 个${word(counted[2], d)}`;
  const direct = d.templates[value] ?? d.text[value] ?? d.text[value.charAt(0).toUpperCase() + value.slice(1)];
  if (direct) return direct;
  const key = labelKeys().get(value.toLowerCase()) ?? (value.endsWith('s') ? labelKeys().get(value.slice(0, -1).toLowerCase()) : undefined);
  return (key && d.catalogue(key)) || value;
}

/** The sentence in the language of `d` when one of its templates matches, else undefined. */
export function saySentence(message: string, d: Dictionaries): string | undefined {
  for (const t of templatesOf(d.templates)) {
    const m = t.re.exec(message);
    if (!m?.groups) continue;
    const vars = Object.fromEntries(t.names.map((n) => [n, COUNTS.has(n) ? m.groups![n] : word(m.groups![n], d)]));
    return d.fill(t.english, vars);
  }
  return undefined;
}
