import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVITY_FILE_COLUMNS,
  AUDIT_ACTION_WORDS,
  CATALOGUE,
  PATTERN_PREFIX,
  checkAllRules,
  dayFromTodayViolation,
  defineResource,
  inputSchema,
  leaveResource,
  reportJobsResource,
  routeRows,
  safeText,
  structOf,
  validate,
  webHooksResource,
  type ResourceDeclaration,
} from '../../contract';
import { NOT_FOUND_ROUTE, ROUTES, SECTIONS } from '../app/routeTable';
import { declarationEntries } from './catalogue';
import { en as enCommon } from './common';
import { zh as zhCommon } from './common.zh';
import { getLocale, loadLocale, setLocale, t, tCat, timeAgoLabel, tRoute, tx } from './index';
import { enRoutes } from '../app/routeWords';
import { zhRoutes } from './routes.zh';
import { derivedZhRoutes, enRouteTemplate } from './routes.derived';
import { zhText } from './text';
import { labelled, violationText } from './violations';
import { zhCatalogue, zhLabelFiles } from './zh';

const CJK = /[\u4e00-\u9fff]/;
const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();

/** zh-CN values that deliberately read like the English (none so far): key → reason. */
const SAME_ON_PURPOSE: Record<string, string> = {};

function untranslated(en: Record<string, string>, zh: Record<string, string>): string[] {
  const bad: string[] = [];
  for (const [key, english] of Object.entries(en)) {
    const chinese = zh[key];
    if (!english?.trim()) bad.push(`en: ${key}`);
    else if (!chinese?.trim()) bad.push(`missing zh-CN: ${key} (${english})`);
    else if (!(key in SAME_ON_PURPOSE) && (chinese === english || !CJK.test(chinese))) bad.push(`zh-CN left in English: ${key} (${chinese})`);
    else if (holes(chinese).join() !== holes(english).join()) bad.push(`placeholders differ: ${key}`);
  }
  return bad;
}

// the zh-CN dictionaries are a chunk of their own, loaded before the console speaks Chinese
beforeAll(async () => {
  await loadLocale('zh-CN');
});
describe('message tables (common)', () => {
  it('has every English key in zh-CN and nothing more', () => {
    expect(Object.keys(zhCommon).sort()).toEqual(Object.keys(enCommon).sort());
  });
  it('has a real translation of every key with the same placeholders', () => {
    expect(untranslated(enCommon, zhCommon)).toEqual([]);
    expect(t('timeZoneHelp', 'zh-CN', { zone: 'GMT+8' })).toBe('所有页面均按此时区显示时间（当前 GMT+8）。');
  });
  it('speaks English by default and follows setLocale', async () => {
    expect(t('signIn', 'en')).toBe('Sign in');
    expect(t('signIn', 'zh-CN')).toBe('登录');
    await setLocale('zh-CN');
    expect(getLocale()).toBe('zh-CN');
    expect(t('signIn')).toBe('登录');
    await setLocale('en');
    expect(t('signIn')).toBe('Sign in');
  });
  it("says English as i18next would: each key's text with its placeholders filled (an English console has no i18next)", async () => {
    const { i18n } = await import('./engine');
    for (const [key, english] of Object.entries(enCommon)) {
      const vars = Object.fromEntries(holes(english).map((h, i) => [h.slice(1, -1), i % 2 ? i : `v${i}`]));
      expect(t(key as keyof typeof enCommon, 'en', vars)).toBe(i18n.t(key, { ns: 'common', lng: 'en', ...vars }));
      expect(t(key as keyof typeof enCommon, 'en')).toBe(i18n.t(key, { ns: 'common', lng: 'en' }));
    }
    for (const text of ['Step {n} of {count}', '{a} and {b}', 'Recovery codes left: {count}']) {
      const vars = { n: 1, count: 0, a: 'x' };
      expect(tx(text, vars, 'en')).toBe(i18n.t(text, { ns: 'text', lng: 'en', defaultValue: text, ...vars }));
    }
  });
  it('labels time-ago in both languages', () => {
    const now = Date.UTC(2024, 0, 2, 12, 0, 0);
    expect(timeAgoLabel(now - 10_000, now, 'en')).toBe('just now');
    expect(timeAgoLabel(now - 5 * 60_000, now, 'zh-CN')).toBe('5分钟前');
    expect(timeAgoLabel(new Date(now - 3 * 3600_000).toISOString(), now, 'en')).toBe('3 hours ago');
  });
});

describe('screen strings (text: keyed by their English)', () => {
  // every tx literal in src must have its zh-CN entry: a new string fails here until it is translated
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(p);
    }
  };
  walk(join(__dirname, '..'));
  const used = new Set<string>();
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/\btx\(\s*'((?:[^'\\]|\\.)*)'/g)) used.add(m[1].replace(/\\'/g, "'"));
  }
  it('finds the call sites', () => {
    expect(used.size).toBeGreaterThan(50);
  });
  it('has a zh-CN entry for every tx literal used in src', () => {
    expect([...used].filter((s) => !(s in zhText))).toEqual([]);
  });
  it('translates every entry (no English left, same placeholders)', () => {
    expect(untranslated(Object.fromEntries(Object.keys(zhText).map((k) => [k, k])), zhText)).toEqual([]);
  });
  it('has the activity report’s words in zh-CN: every action in plain words and every header of its file (issue 50)', () => {
    const words = [...Object.values(AUDIT_ACTION_WORDS), ...ACTIVITY_FILE_COLUMNS];
    expect(words.filter((w) => !(w in zhText))).toEqual([]);
  });
  // issue 48: the Why? drawer said its title, its lines and its checks' names in English in a zh-CN console; the password
  // forms their labels, their button and every field error (a violation's English, "The passwords do not match")
  it('a screen that said English words outside tx (JSX text, a title, a label, a message) says none now: the Why? drawer, the password forms', async () => {
    const { WHY_CHECKS } = await import('../screens/configure/WhyDrawer');
    expect(Object.values(WHY_CHECKS).filter((w) => !(w in zhText))).toEqual([]);
    const english: string[] = [];
    for (const file of [
      'screens/configure/WhyDrawer.tsx',
      'screens/auth/PasswordForm.tsx',
      'screens/auth/index.tsx',
      'screens/attendance/BuildTimesheetScreen.tsx',
    ]) {
      const body = readFileSync(join(__dirname, '..', file), 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, ''); // comments left out
      const found = [
        // text between tags with a word in it, not an expression ({…})
        ...[...body.matchAll(/(?<!=)>([^<>{}=;]*[A-Za-z]{2,}[^<>{}=;]*)</g)].map((m) => m[1].trim()),
        // a quoted title, label, placeholder or button text, as an attribute or a property
        ...[...body.matchAll(/\b(?:title|label|placeholder|aria-label|submitText)(?:="|: ')([^"']*[A-Za-z]{2,}[^"']*)["']/g)].map((m) => m[1]),
        // a template of words shown as it is, or one showing a message's English
        ...[...body.matchAll(/`([^`\n]*(?:[A-Za-z]{3,} |\.message\})[^`\n]*)`/g)].map((m) => m[1]),
        // a sentence assigned as a field's error
        ...[...body.matchAll(/\berrors\[[^\]]+\] = '([^']+)'/g)].map((m) => m[1]),
      ];
      english.push(...found.map((w) => `${file}: ${w}`));
    }
    expect(english).toEqual([]);
    // its decision labels are said from the event words (./events.ts): every label a decision gives
    const { DECISION_LABELS } = await import('../../contract/decision');
    expect(
      Object.values(DECISION_LABELS)
        .map((l) => tx(l, undefined, 'zh-CN'))
        .filter((z) => !CJK.test(z)),
    ).toEqual([]);
    expect(tx('{who} (card {card}) at {door}, {at}', { who: 'Ann Lee', card: '77', door: 'Vault', at: '2 Dec 2026 18:01' }, 'zh-CN')).toBe(
      'Vault：Ann Lee（卡 77），2 Dec 2026 18:01',
    );
    expect(
      tx(
        'Decided at the edge while offline, with snapshot version {version}{built}{reached}.',
        { version: 7, built: tx(' of {built}', { built: '1 Dec 2026 09:00' }, 'zh-CN'), reached: '' },
        'zh-CN',
      ),
    ).toBe('由 Edge 在离线时判定，使用快照版本 7（构建于 1 Dec 2026 09:00）。');
  });
  it('falls back to the English text and fills placeholders', () => {
    expect(tx('Not in any table {n}', { n: 3 }, 'zh-CN')).toBe('Not in any table 3');
  });
});

describe('route titles', () => {
  it('has the zh-CN title of every route (later-release screens too), of every description and section', () => {
    expect(untranslated(enRoutes(), { ...derivedZhRoutes(zhCatalogue), ...zhRoutes })).toEqual([]);
    expect(ROUTES.length).toBeGreaterThanOrEqual(165);
  });
  it("derives a resource's route titles and descriptions from its zh-CN labels only where the English is the template", () => {
    // a derived zh-CN title or description stands for the English template ("Add web hook", "Create a new web hook."):
    // a route whose English is its own (a screen's title, a description written for it) keeps its zh-CN in routes.zh.ts
    const derived = derivedZhRoutes(zhCatalogue);
    expect(Object.keys(derived).length).toBeGreaterThan(150);
    const en = enRoutes();
    const byPath = new Map(CATALOGUE.flatMap((res) => routeRows(res).map((row) => [row.path, { res, kind: row.kind }] as const)));
    const wrongWithout = (k: string) => {
      const { res, kind } = byPath.get(k.replace(/^desc:/, ''))!;
      const t = enRouteTemplate(kind, res.label.one, res.label.many, res.description);
      return en[k] !== undefined && en[k] !== (k.startsWith('desc:') ? t.description : t.title);
    };
    const wrong = Object.keys(derived).filter((k) => !(k in zhRoutes) && wrongWithout(k));
    expect(wrong).toEqual([]);
    // and routes.zh.ts keeps nothing the labels give: an entry there differs, or its English is not the template
    expect(Object.keys(zhRoutes).filter((k) => derived[k] === zhRoutes[k] && !wrongWithout(k))).toEqual([]);
    expect(derived['/manage/web-hooks/add']).toBe('新增 Web 钩子');
    expect(derived['desc:/configure/doors/edit/:id']).toBe('修改门。');
    // a list's description is its declaration's `description`, in zh-CN beside its labels
    expect(derived['desc:/hardware/output']).toBe('继电器、门锁和声响器。');
  });
  it('looks titles up by path with the English as fallback', () => {
    expect(tRoute('/monitor/alarms', 'Alarms', 'zh-CN')).toBe('报警');
    expect(tRoute(NOT_FOUND_ROUTE.path, NOT_FOUND_ROUTE.title, 'zh-CN')).toBe('页面不存在');
    expect(tRoute('section.monitor', SECTIONS[1].title, 'zh-CN')).toBe('监控');
    expect(tRoute('/nowhere', 'Nowhere', 'zh-CN')).toBe('Nowhere');
  });
});

describe('catalogue labels', () => {
  it('has zh-CN for every CATALOGUE resource, field, choice, help text, form section and message', () => {
    const missing: string[] = [];
    for (const d of CATALOGUE) missing.push(...untranslated(declarationEntries(d), zhCatalogue).map((m) => `${d.name}: ${m}`));
    expect(missing).toEqual([]);
  });
  it('keeps no zh-CN entry for something the catalogue no longer declares', () => {
    const declared = new Set(CATALOGUE.flatMap((d) => Object.keys(declarationEntries(d))));
    expect(Object.keys(zhCatalogue).filter((k) => !declared.has(k))).toEqual([]);
  });
  it('translates a field label and a violation message', () => {
    expect(tCat('resource.identities.field.employeeNo', 'Employee no.', 'zh-CN')).toBe('工号');
    expect(tCat('resource.identities.field.employeeNo', 'Employee no.', 'en')).toBe('Employee no.');
    const cat = (k: string, e: string) => tCat(k, e, 'zh-CN');
    // a declaration's own unique sentence is said by the catalogue key the server sends with it (server/crud/checks.ts), never by its English
    const taken = { message: 'is already used by another identity', code: 'resource.identities.unique.employeeNo', values: {} };
    expect(violationText(taken, 'zh-CN', cat)).toBe('已被其他身份使用');
    expect(violationText(taken, 'en', cat)).toBe('is already used by another identity');
    expect(violationText('is already used by another identity', 'zh-CN', cat)).toBe('is already used by another identity');
    // issue 48: a bound is said by the key its violation carries (contract/primitives.ts), never found in its English
    const tooLong = validate('x'.repeat(101), safeText(100));
    expect(tooLong.ok ? null : tooLong.violations[0]).toEqual({
      field: '(body)',
      message: 'must be at most 100 characters',
      code: 'text.tooLong',
      values: { max: 100 },
    });
    expect(violationText(tooLong.ok ? '' : tooLong.violations[0], 'zh-CN', cat)).toBe('不能超过 100 个字符');
    expect(violationText(tooLong.ok ? '' : tooLong.violations[0], 'en', cat)).toBe('must be at most 100 characters');
    expect(violationText('must be at most 100 characters', 'zh-CN', cat)).toBe('must be at most 100 characters');
    expect(violationText('is required', 'en', cat)).toBe('is required');
    // issue 48: a violation the server said with values is said by its key, its word translated; its English alone is
    // never parsed back apart
    const notYours = { message: 'is not a door you may use', code: 'record.notYoursToUse', values: { what: 'door' } };
    expect(violationText(notYours, 'zh-CN', cat)).toBe(`不是您可以使用的${tCat('resource.doors.one', 'Door', 'zh-CN')}`);
    expect(violationText(notYours, 'en', cat)).toBe('is not a door you may use');
    expect(violationText('is not a door you may use', 'zh-CN', cat)).toBe('is not a door you may use');
    // issue 48: a pattern's violation names the format by the field's help, its catalogue key a value of the sentence
    // (text.notInForm), said from the declaration's zh-CN; its English alone is no key
    // issue 50: only the format part of a help is said, its first letter small ("E-mail to must be written as: Addresses
    // separated by commas…; mailed only when…"), in Chinese too
    const said = structOf(reportJobsResource.fields.recipients as never, { base: 'resource.reportJobs', name: 'recipients' });
    const refused = validate('not an address', said);
    const pattern = refused.ok ? null : refused.violations[0];
    expect(pattern).toMatchObject({
      message: `${PATTERN_PREFIX}addresses separated by commas or new lines (at most 20)`,
      code: 'text.notInForm',
      values: { format: 'addresses separated by commas or new lines (at most 20)', 'format:code': 'resource.reportJobs.help.recipients' },
    });
    const zh = violationText(pattern!, 'zh-CN', cat);
    expect(zh).toMatch(/^格式应为：/);
    expect(zh).not.toMatch(/SMTP|[A-Za-z]{3}/);
    expect(zh).toBe(`格式应为：${tCat('resource.reportJobs.help.recipients', '', 'zh-CN').split(/[;；]/)[0].trim()}`);
    expect(violationText(pattern!, 'en', cat)).toBe(pattern!.message);
    expect(violationText(pattern!.message, 'zh-CN', cat)).toBe(pattern!.message);
    // the form's schema carries the key as the server's does (inputSchema of the declaration)
    const form = validate({ name: 'x', recipients: 'not an address' }, inputSchema(reportJobsResource));
    expect(form.ok ? [] : form.violations.filter((v) => v.field === 'recipients')).toEqual([pattern && { ...pattern, field: 'recipients' }]);
    // a rule is said by its catalogue key (resource.<name>.rule.<field>), the form's and the server's alike
    const backwards = checkAllRules(leaveResource, { fromDate: '2026-12-02', toDate: '2026-12-01' });
    expect(backwards).toEqual([{ field: 'toDate', message: 'must not be before \u201cFrom\u201d', code: 'resource.leave.rule.toDate', values: {} }]);
    expect(violationText(backwards[0], 'zh-CN', cat)).toBe(tCat('resource.leave.rule.toDate', '', 'zh-CN'));
    expect(CJK.test(violationText(backwards[0], 'zh-CN', cat))).toBe(true);
    expect(violationText(backwards[0].message, 'zh-CN', cat)).toBe(backwards[0].message);
    // a rule names the other field by its label (it said "To must not be before from date")
    expect(leaveResource.rules).toContainEqual(expect.objectContaining({ field: 'toDate', message: 'must not be before \u201cFrom\u201d' }));
    // a date in a message is shown as the screen shows dates (it said "(2026-12-02)" beside a field showing "2 Dec 2026")
    const beforeToday = dayFromTodayViolation('visitDate', '2026-12-01', '2026-12-02')!;
    expect(beforeToday).toMatchObject({ code: 'day.beforeToday', values: { today: '2026-12-02' } });
    expect(violationText(beforeToday, 'en', cat)).toBe('must not be before today (2 Dec 2026)');
    expect(violationText(beforeToday, 'zh-CN', cat)).toBe('不能早于今天（2026年12月2日）');
    expect(labelled('工号', '为必填项', 'zh-CN')).toBe('工号为必填项');
  });
});

// Issue 28: a resource's zh-CN labels live beside its declaration, contract/resources/<name>.zh.ts next to <name>.ts,
// so a new resource touches its declaration and its migration; this names the resource and the file a label is missing from.
/** The modules that declare resources (index.ts only re-exports them). */
const declaringModules = import.meta.glob<Record<string, unknown>>(['../../contract/resources/*.ts', '!**/*.zh.ts', '!**/*.test.ts', '!**/index.ts'], {
  eager: true,
});
const repoPath = (p: string) => p.replace(/^(\.\.\/)+/, '');

/** What is wrong with the labels of `catalogue`, given the modules that declare it and the label files by path. */
function labelProblems(
  catalogue: readonly ResourceDeclaration<any>[],
  modules: Record<string, Record<string, unknown>>,
  labelFiles: Record<string, Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const declared = new Set(catalogue);
  const home = new Map<string, string>();
  for (const [path, m] of Object.entries(modules))
    for (const v of Object.values(m)) if (declared.has(v as ResourceDeclaration<any>)) home.set((v as ResourceDeclaration<any>).name, repoPath(path));
  const labels = new Map(Object.entries(labelFiles).map(([p, l]) => [repoPath(p), l]));
  /** label file → the keys its sibling's declarations have */
  const keysOf = new Map<string, Set<string>>();
  for (const d of catalogue) {
    const file = home.get(d.name);
    if (!file) {
      problems.push(`${d.name}: declared in no file of contract/resources`);
      continue;
    }
    const zhFile = file.replace(/\.ts$/, '.zh.ts');
    const english = declarationEntries(d);
    keysOf.set(zhFile, new Set([...(keysOf.get(zhFile) ?? []), ...Object.keys(english)]));
    const zh = labels.get(zhFile);
    if (!zh) problems.push(`${d.name} (${file}): no ${zhFile} beside it`);
    else problems.push(...untranslated(english, zh).map((m) => `${d.name} (${zhFile}): ${m}`));
  }
  for (const [zhFile, zh] of labels)
    for (const k of Object.keys(zh))
      if (!keysOf.get(zhFile)?.has(k)) problems.push(`${zhFile}: ${k} is no label of what ${zhFile.replace(/\.zh\.ts$/, '.ts')} declares`);
  return problems;
}

describe('labels beside what they label (contract/resources/<name>.zh.ts)', () => {
  it('finds every declaring file and every label file', () => {
    expect(Object.keys(declaringModules).length).toBeGreaterThanOrEqual(30);
    // the glob of src/i18n/zh.ts finds the label files (a wrong pattern finds none, and zh-CN would show English)
    expect(Object.keys(zhLabelFiles).length).toBeGreaterThanOrEqual(30);
    expect(Object.keys(zhLabelFiles)).toContain('../../contract/resources/webHooks.zh.ts');
    expect(zhCatalogue['resource.webHooks.field.url']).toBe(zhLabelFiles['../../contract/resources/webHooks.zh.ts']['resource.webHooks.field.url']);
  });
  it("every resource's labels are in the file beside its declaration, complete, and no file labels another's", () => {
    expect(labelProblems(CATALOGUE, declaringModules, zhLabelFiles)).toEqual([]);
  });
  it('names a resource declared without its label file, a missing label, and a label in the wrong file', () => {
    // a new resource (declared in parcels.ts) with no parcels.zh.ts
    const parcels = defineResource({ ...webHooksResource, name: 'parcels' });
    const withParcels = { ...declaringModules, '../../contract/resources/parcels.ts': { parcelsResource: parcels } };
    expect(labelProblems([...CATALOGUE, parcels], withParcels, zhLabelFiles)).toEqual([
      'parcels (contract/resources/parcels.ts): no contract/resources/parcels.zh.ts beside it',
    ]);
    // a label left out of a file that labels several resources
    const hardware = '../../contract/resources/hardware.zh.ts';
    const { ['resource.inputs.field.name']: _gone, ...fewer } = zhLabelFiles[hardware];
    expect(labelProblems(CATALOGUE, declaringModules, { ...zhLabelFiles, [hardware]: fewer })).toEqual([
      `inputs (contract/resources/hardware.zh.ts): missing zh-CN: resource.inputs.field.name (${declarationEntries(CATALOGUE.find((d) => d.name === 'inputs')!)['resource.inputs.field.name']})`,
    ]);
    // a resource's label moved into another resource's file
    const clients = '../../contract/resources/clients.zh.ts';
    const webHooks = '../../contract/resources/webHooks.zh.ts';
    const { ['resource.webHooks.field.url']: url, ...webHooksLeft } = zhLabelFiles[webHooks];
    expect(
      labelProblems(CATALOGUE, declaringModules, {
        ...zhLabelFiles,
        [webHooks]: webHooksLeft,
        [clients]: { ...zhLabelFiles[clients], 'resource.webHooks.field.url': url },
      }),
    ).toEqual([
      'webHooks (contract/resources/webHooks.zh.ts): missing zh-CN: resource.webHooks.field.url (Target URL)',
      'contract/resources/clients.zh.ts: resource.webHooks.field.url is no label of what contract/resources/clients.ts declares',
    ]);
  });
});

describe('generated list columns', () => {
  it('every column and first-column title of every catalogue resource has its zh-CN (a console touch that names a column too)', async () => {
    const { consoleResource } = await import('../resources/registry');
    const missing: string[] = [];
    for (const d of CATALOGUE) {
      const r = consoleResource(d.name);
      // a tenant's settings (a singleton) have no list
      for (const c of (d.singleton ? [] : [r.primary, ...r.columns]) as { title: string; titleKey?: string }[]) {
        const ok = c.titleKey ? c.titleKey in zhCatalogue : c.title in zhText;
        if (!ok) missing.push(`${d.name}: ${c.title}`);
      }
      for (const x of d.screens?.shownOnce ?? []) if (!(x.label in zhText)) missing.push(`${d.name}: ${x.label}`);
      // row links and row actions (their buttons and the toast after one) speak the console's language too
      for (const x of d.screens?.rowLinks ?? []) if (!(x.label in zhText)) missing.push(`${d.name}: ${x.label}`);
      for (const x of d.screens?.rowActions ?? []) for (const w of [x.label, x.done]) if (!(w in zhText)) missing.push(`${d.name}: ${w}`);
      // record actions on a record's page: button, toast, and the reason asked for first
      for (const x of d.screens?.recordActions ?? []) {
        for (const w of [x.label, x.done, x.reason?.label, x.reason?.placeholder, x.needs?.hint]) if (w && !(w in zhText)) missing.push(`${d.name}: ${w}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('privilege labels', () => {
  it('has a zh-CN label for every privilege code, and none for a code that does not exist', async () => {
    const { PRIVILEGES } = await import('../../contract');
    const { privilegeLabel, withoutView } = await import('./privileges');
    const { zhBundles } = await import('./zh');
    await loadLocale('zh-CN');
    // the zh-CN chunk's: a resource's own privileges from its labels (./privileges.derived.ts), the rest ./privileges.zh.ts
    const zhPrivileges = zhBundles.privileges;
    const codes = PRIVILEGES.map((p) => p.code);
    expect(codes.filter((c) => !CJK.test(zhPrivileges[c] ?? ''))).toEqual([]);
    expect(Object.keys(zhPrivileges).filter((c) => !codes.includes(c))).toEqual([]);
    // a "View …" label is "查看…" in Chinese, so a group is named in both languages
    expect(PRIVILEGES.filter((p) => p.label.startsWith('View ') && !zhPrivileges[p.code].startsWith('查看')).map((p) => p.code)).toEqual([]);
    expect(privilegeLabel('0.4.8.0', 'View logical blocks', 'zh-CN')).toBe('查看逻辑块');
    expect(privilegeLabel('0.4.8.0', 'View logical blocks', 'en')).toBe('View logical blocks');
    expect(withoutView('查看逻辑块')).toBe('逻辑块');
    expect(withoutView('View the UI error log')).toBe('UI error log');
  });
  it("derives a resource's privileges from its zh-CN label where the English is the template, so they name it as its screens do", async () => {
    const { PRIVILEGES } = await import('../../contract');
    const { derivedZhPrivileges, enPrivilegeTemplate } = await import('./privileges.derived');
    const { zhPrivileges } = await import('./privileges.zh');
    const derived = derivedZhPrivileges(zhCatalogue);
    expect(Object.keys(derived).length).toBeGreaterThan(100);
    // a derived code's English is the template over its resource's label; privileges.zh.ts does not say it again
    const english = new Map(PRIVILEGES.map((p) => [p.code, p.label]));
    const templated = (code: string) =>
      CATALOGUE.some((res) =>
        (['view', 'add', 'edit', 'delete'] as const).some(
          (action) => res.privileges[action] === code && english.get(code)!.toLowerCase() === enPrivilegeTemplate(action, res.label.many).toLowerCase(),
        ),
      );
    expect(Object.keys(derived).filter((c) => !templated(c))).toEqual([]);
    expect(Object.keys(zhPrivileges).filter((c) => c in derived)).toEqual([]);
    // the access zones' privileges say what the screen and the sidebar say (they said 通行区域, the screen 门禁区域)
    expect(derived['0.4.2.0']).toBe(`查看${zhCatalogue['resource.accessZones.many']}`);
    expect(derived['0.3.4.4']).toBe('查看 Web 钩子');
  });
});

describe('card-format decode problems', () => {
  it('are said in Chinese too: every sentence the decoder gives has its zh-CN entry', async () => {
    const { decodeWith, STANDARD_FORMATS } = await import('../../contract/cardFormat');
    const f = STANDARD_FORMATS[0];
    const good = '0'.repeat(f.bits);
    const flipped = (i: number) => good.slice(0, i) + (good[i] === '0' ? '1' : '0') + good.slice(i + 1);
    const whys = ['2x', '0101', ...f.parity.map((p) => flipped(p.bit))].map((raw) => decodeWith(f, raw)).flatMap((r) => (!r.ok && r.why ? [r.why] : []));
    expect(new Set(whys.map((w) => w.text)).size).toBeGreaterThanOrEqual(3);
    for (const w of whys) expect([w.text, zhText[w.text]]).toEqual([w.text, expect.stringMatching(/[\u4e00-\u9fff]/)]);
    expect(tx(whys[1].text, whys[1].vars, 'zh-CN')).toMatch(/^4 位，.* 为 26 位$/);
  });
});

/** The server's (or `dir`'s) product files, tests left out, and their text. */
const serverFiles = (dir = 'server') => {
  const root = join(__dirname, '..', '..', dir);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) files.push(p);
    }
  };
  walk(root);
  return files.map((f) => ({ f, text: readFileSync(f, 'utf8') }));
};

describe("the server's own sentences", () => {
  // issue 48: a refusal the server says in fixed words says them by a key (fill(…, {}) or a constant made by it, such as
  // kit.ts INVALID_REQUEST), which the console translates (src/i18n/sentences.ts); no route's refusal is found by its English
  it('every fixed refusal a server route answers carries its key: no HttpError of a literal sentence', () => {
    // a protocol word, not a sentence for a person (§6's header value); the transport's refusals (a JSON body, a session
    // recording's upload) are keyed too
    const NOT_SHOWN = new Set(['JWT-Invalid']);
    const files = serverFiles();
    const literal = files.flatMap(({ f, text }) =>
      // the status a number or a name (`new HttpError(status, 'Validation failed')` hid from a scan of numbers alone)
      [...text.matchAll(/HttpError\(\s*(?:\d{3}|[\w.]+),\s*(['"])((?:(?!\1)[^\\])+)\1/g)].map((m) => ({ where: f.split('/server/')[1], message: m[2] })),
    );
    expect(literal.filter((l) => !NOT_SHOWN.has(l.message)).map((l) => `${l.where}: ${l.message}`)).toEqual([]);
    // the scan reads the keyed ones (fill( as the refusal) and the constants made by fill (LOCKED, INVALID_REQUEST)
    const keyed = files.reduce((n, { text }) => n + [...text.matchAll(/HttpError\(\s*\d{3},\s*(?:fill\(|INVALID_REQUEST\b|LOCKED\b)/g)].length, 0);
    expect(keyed).toBeGreaterThan(150);
  });

  // issue 48: the server's own violations are keyed where they are made, never a literal sentence the console would find
  // by its English: second factors, the catalogue's generic writes and the resources' hooks (boards, divisions,
  // overrides, …), the hand-written routes, backups, reports, the access rooms, alarms, the edge's reader routes and
  // the identity providers' form. Left out on purpose: what only a device or an identity provider's redirect reads (the
  // Read too (issue 48): what a device reads (the ingest's rejections, keyed with their English beside the key for its
  // log), the identity providers' sign-in flow, the transport of JSON bodies and session recordings.
  it('every violation of the second factors, boards, divisions, overrides, the catalogue writes and the routes carries its key', () => {
    const ROOMS = [
      /\/server\/auth\/mfa\//,
      /\/server\/crud\//,
      /\/server\/resources\//,
      /\/server\/http\//,
      /\/server\/backup\//,
      /\/server\/reports\//,
      /\/server\/access\//,
      /\/server\/alarms\//,
      /\/server\/edge\/readerRoutes\.ts$/,
      /\/server\/edge\/ingest\.ts$/,
      /\/server\/batch\//, // a batch file's bad rows and an unreadable spreadsheet
      /\/server\/auth\/iam\//, // the identity providers' form and the sign-in's return: what the refusal page and the console show
      /\/server\/auth\/accountScope\.ts$/,
    ];
    const files = serverFiles().filter(({ f }) => ROOMS.some((r) => r.test(f)));
    expect(files.length).toBeGreaterThan(60);
    const literal = files.flatMap(({ f, text }) =>
      [...text.matchAll(/\bfield\b[^{}]{0,80}?\bmessage: ([`'"][^\n]*)/g)].map((m) => `${f.split('/server/')[1]}: ${m[1].slice(0, 70)}`),
    );
    expect(literal).toEqual([]);
    // an unreadable spreadsheet's problem (server/batch/parse.ts) is a sentence, never words handed to bad() or problem()
    const parse = files.find(({ f }) => f.endsWith('/server/batch/parse.ts'))!.text;
    expect(parse).toContain("fill('batch.cellTooLong'");
    expect([...parse.matchAll(/\b(?:bad|problem|rowProblem|cellProblem)\((?:[^()]*,\s*)?[`'"]/g)].map((m) => m[0])).toEqual([]);
    // and the scan sees the keyed ones
    expect(files.reduce((n, { text }) => n + [...text.matchAll(/\.\.\.fill\('/g)].length, 0)).toBeGreaterThanOrEqual(80);
  });
});

describe("the server's sentences with values", () => {
  it('are built with fill(template), never a template literal: the transport problems an integrator sees too', () => {
    // a JSON body the console never sends and the background upload of a session recording were the last (issue 48)
    const literal = serverFiles().flatMap(({ f, text }) =>
      [...text.matchAll(/HttpError\(\s*(?:\d+|[\w.]+),\s*`([^`]*)`/g)].map((m) => `${f.split('/server/')[1]}: ${m[1]}`),
    );
    expect(literal).toEqual([]);
    // the scan reads the transport's refusals, keyed
    const kit = serverFiles().filter(({ f }) => /\/server\/http\/(kit|journals)\.ts$/.test(f));
    expect(kit.reduce((n, { text }) => n + [...text.matchAll(/HttpError\(\s*\d+,\s*fill\('(json|journal|recording)\./g)].length, 0)).toBeGreaterThanOrEqual(9);
    // the access engine's "Why?" steps (access/engine.ts, schedule.ts): a step's detail is a sentence made by fill(), never
    // a literal or a template, which the console could only show in English
    const access = serverFiles('access');
    expect(access.reduce((n, { text }) => n + [...text.matchAll(/\b(?:detail:|deny\(|pass\()/g)].length, 0)).toBeGreaterThan(30);
    const worded = access.flatMap(({ f, text }) =>
      [...text.matchAll(/\b(?:detail:|deny\([^,()]+,[^,()]+,|pass\([^,()]+,)\s*([`'"][^\n]*)/g)].map((m) => `${f.split('/access/')[1]}: ${m[1].slice(0, 60)}`),
    );
    expect(worded).toEqual([]);
  });

  // every fill('key', 'template', …) of server/, of the edge controller (edge/: its events reach the console through
  // the device interface) and of the access engine (access/: the "Why?" steps' details), read from the code: a key in
  // the catalogue's scheme, one template a key, and its zh-CN with the same placeholders (issue 48: the console says the
  // sentence by its key, never parsing English)
  // and the console's machines' own words (machines/: the desktop companion's connection, issue 48)
  const sayers = () => [...serverFiles(), ...serverFiles('edge'), ...serverFiles('access'), ...serverFiles('machines')];
  const filled = () => {
    const out: { key: string; template: string; where: string }[] = [];
    for (const { f, text } of sayers())
      for (const m of text.matchAll(/\bfill\(\s*'([^'\\]+)',\s*(?:'([^'\\]+)'|"([^"\\]+)")/g))
        out.push({ key: m[1], template: m[2] ?? m[3], where: f.split(/\/(?=server\/|edge\/|access\/|machines\/)/)[1] });
    return out;
  };
  const names = (t: string) => [...new Set([...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort().join();

  it('every sentence the server fills has a key of the one scheme, one template a key, and a zh-CN template with its placeholders', async () => {
    const { zhSentences } = await import('./sentences');
    const { DOOR_COMMAND_REFUSALS, SENTENCE_KEY } = await import('../../contract');
    const all = filled();
    // every fill( call is read (a call the pattern misses, with a template not in quotes, would go unchecked)
    const calls = sayers().reduce((n, { text }) => n + [...text.matchAll(/\bfill\(\s*'/g)].length, 0);
    expect(all.length).toBe(calls);
    expect(all.length).toBeGreaterThanOrEqual(30);
    expect(all.filter((s) => s.where.startsWith('edge/')).length).toBeGreaterThanOrEqual(4); // the edge's are read too
    expect(all.filter((s) => s.where.startsWith('access/')).length).toBeGreaterThanOrEqual(40); // and the engine's
    expect(all.filter((s) => s.where.startsWith('machines/')).length).toBeGreaterThanOrEqual(15); // and the companion's
    // a card format's reasons, inside the "Why?" step of a card no format decodes (contract/cardFormat.ts's own table)
    const { DECODE_WHYS } = await import('../../contract/cardFormat');
    const sentences = [
      ...all,
      ...DOOR_COMMAND_REFUSALS.map((r) => ({ key: r.code, template: `{door} ${r.reason}`, where: 'contract/doors.ts' })),
      ...Object.entries(DECODE_WHYS).map(([key, template]) => ({ key, template, where: 'contract/cardFormat.ts' })),
    ];
    expect(sentences.filter((s) => !SENTENCE_KEY.test(s.key)).map((s) => `${s.where}: ${s.key}`)).toEqual([]);
    const templateOf = new Map<string, string>();
    for (const s of sentences) expect([s.key, templateOf.get(s.key) ?? s.template]).toEqual([s.key, templateOf.set(s.key, s.template).get(s.key)]);
    expect(sentences.filter((s) => typeof zhSentences[s.key] !== 'string').map((s) => `${s.where}: ${s.key}`)).toEqual([]);
    for (const s of sentences) expect([s.key, names(zhSentences[s.key])]).toEqual([s.key, names(s.template)]);
    // and no zh-CN template of a key nobody fills
    const { DEFAULT_INSTRUCTIONS_KEYS } = await import('../../contract');
    const keys = new Set([...sentences.map((s) => s.key), ...[...DEFAULT_INSTRUCTIONS_KEYS.values()].map((d) => d.code)]);
    expect(Object.keys(zhSentences).filter((k) => !keys.has(k))).toEqual([]);
  });

  // the contract's own violations with values (contract/primitives.ts, derive.ts, …): made by fill() at their source, one
  // template a key, said by key with src/i18n/violations.ts's zh-CN; never parsed back apart from their English there
  it('every violation the contract fills has a key, one template, and a zh-CN with its placeholders in violations.ts', async () => {
    const { zhViolationSentences } = await import('./violations');
    const all: { key: string; template: string; where: string }[] = [];
    // fill itself (messages.ts: its examples are the server's) left out; an array's .fill is no sentence
    const files = serverFiles('contract').filter(({ f }) => !f.endsWith('/messages.ts'));
    for (const { f, text } of files)
      for (const m of text.matchAll(/(?<!\w)(?<![^.]\.)fill\(\s*'([^'\\]+)',\s*(?:'([^'\\]+)'|"([^"\\]+)")/g))
        all.push({ key: m[1], template: m[2] ?? m[3], where: f.split('/contract/')[1] });
    // every fill call is read (one the pattern misses, its template not in quotes, would go unchecked)
    expect(all.length).toBe(files.reduce((n, { text }) => n + [...text.matchAll(/(?<!\w)(?<![^.]\.)fill\(/g)].length, 0));
    expect(all.length).toBeGreaterThanOrEqual(12);
    const templateOf = new Map<string, string>();
    for (const s of all) expect([s.key, templateOf.get(s.key) ?? s.template]).toEqual([s.key, templateOf.set(s.key, s.template).get(s.key)]);
    expect(all.filter((s) => typeof zhViolationSentences[s.key] !== 'string').map((s) => `${s.where}: ${s.key}`)).toEqual([]);
    for (const s of all) expect([s.key, names(zhViolationSentences[s.key])]).toEqual([s.key, names(s.template)]);
    expect(Object.keys(zhViolationSentences).filter((k) => !templateOf.has(k))).toEqual([]);
    // violations.ts reads no message apart: no match, exec or RegExp, and no pattern anchored on a template's words
    // (/^must be at most (\d+) characters$/ was one)
    const source = readFileSync(join(__dirname, 'violations.ts'), 'utf8');
    expect(source).not.toMatch(/\.match\(|\.exec\(|matchAll\(|RegExp\(/);
    const starts = [...new Set(all.map((s) => s.template.split('{')[0].trim()))];
    expect(starts.length).toBeGreaterThanOrEqual(8);
    expect(starts.filter((w) => source.includes(`^${w}`) || source.includes(`${w} (\\`))).toEqual([]);
  });

  it("say an unreadable spreadsheet's cell by its key, the cell's problem by its own key inside (issue 48)", async () => {
    await loadLocale('zh-CN');
    const { saySentence } = await import('./index');
    const { cellProblem, rowProblem } = await import('../../server/batch/parse');
    const { fill } = await import('../../contract');
    const cell = cellProblem(3, 1, 'First', fill('batch.formula', 'a formula; upload values only', {}));
    expect(cell.message).toBe('Row 3, column B (First): a formula; upload values only');
    expect(saySentence({ message: cell.message, code: cell.code!, values: cell.values! }, 'zh-CN')).toBe('第 3 行第 B 列（First）：是公式；请只上传值');
    expect(cell.violations![0]).toMatchObject({ field: 'rows[3].First', code: 'batch.cellNamed' });
    const row = rowProblem(4, fill('batch.notCsv', 'is not readable as CSV', {}));
    expect(saySentence({ message: row.message, code: row.code!, values: row.values! }, 'zh-CN')).toBe('第 4 行：无法按 CSV 读取');
  });

  it("say an action's hint (a declaration's needs) by its key, the hint in the console's words as beside its button (issue 48)", async () => {
    await loadLocale('zh-CN');
    const { saySentence } = await import('./index');
    const { firmwareResource, fill } = await import('../../contract');
    const hint = firmwareResource.screens!.recordActions!.find((a) => a.needs)!.needs!.hint;
    const said = fill('record.actionNeeds', '{hint}', { hint });
    expect(saySentence(said, 'zh-CN')).toBe(tx(hint, undefined, 'zh-CN'));
    expect(CJK.test(saySentence(said, 'zh-CN'))).toBe(true);
    expect(saySentence(said, 'en')).toBe(hint);
  });

  it('are never parsed back apart from their English where a key could say them (the sign-in refusal page, a reference not yours)', () => {
    const page = readFileSync(join(__dirname, '..', '..', 'server', 'auth', 'iam', 'page.ts'), 'utf8');
    expect(page).not.toMatch(/RegExp|\.exec\(|\.match\(/);
    expect(readFileSync(join(__dirname, 'violations.ts'), 'utf8')).not.toContain('you may use');
    // nor by a screen testing a pattern against a message (the alarm handling report's period: /before/, /within/)
    const screens = serverFiles('src').filter(({ f }) => /\.tsx?$/.test(f));
    expect(screens.length).toBeGreaterThan(100);
    const parsing = screens.flatMap(({ f, text }) =>
      [...text.matchAll(/\/[^/\n]+\/\w*\.test\([\w.]*\.message\)/g)].map((m) => `${f.split('/src/')[1]}: ${m[0]}`),
    );
    expect(parsing).toEqual([]);
    // nor a sentence's values split apart where they are said (a list at ', ', a count before its word)
    const said = readFileSync(join(__dirname, 'index.ts'), 'utf8');
    expect(said).toContain('function valueWord(');
    expect(said).not.toMatch(/\.split\(', '\)|\^\(\\d\+\) /);
    // nor a form field's error found again by its English or its label cut off it: the error holds its violation
    const form = ['formValues.ts', 'formMessages.ts'].map((f) => readFileSync(join(__dirname, '..', 'resources', f), 'utf8')).join('\n');
    expect(form).toContain('export function sayError(');
    expect(form).not.toMatch(/new Map<string, Violation>|\.slice\(def\.label\.length/);
  });

  it("the contract's and the server's violations with a number in them carry their key: a period backwards, a password's classes and history, too many recipients, a moment past the history", async () => {
    const { passwordProblems, problemSaid, fill } = await import('../../contract');
    const { alarmPeriodProblem } = await import('../../contract/alarmHandling');
    const { pastMomentProblem } = await import('../../contract/floorPlanHistory');
    const { reportRecipients } = await import('../../contract/resources/reportJobs');
    const cat = (k: string, e: string) => tCat(k, e, 'zh-CN');
    const zh = (v: Parameters<typeof violationText>[0]) => violationText(v, 'zh-CN', cat);
    const backwards = alarmPeriodProblem('2026-12-02', '2026-12-01')!;
    expect(backwards).toMatchObject({ field: 'to', message: 'must not be before the first day', code: 'day.beforeFirstDay' });
    expect(zh(backwards)).toBe('不能早于开始日期');
    const [classes] = passwordProblems('abcdefgh', { passwordMinLength: 8, passwordClasses: 3 });
    expect(problemSaid(classes)).toMatchObject({ message: 'must mix at least 3 of: lower case, upper case, digits, symbols', values: { n: 3 } });
    expect(zh(problemSaid(classes))).toBe('必须至少包含以下 3 类字符：小写字母、大写字母、数字、符号');
    const many = reportRecipients(Array.from({ length: 21 }, (_, i) => `a${i}@example.com`).join(', ')).problem!;
    expect(zh(problemSaid(many))).toBe('最多 20 个地址');
    const now = Date.UTC(2026, 11, 4);
    const old = pastMomentProblem(now - 40 * 86_400_000, now)!;
    expect(problemSaid(old).message).toBe('must be within the last 30 days');
    expect(zh(problemSaid(old))).toBe('必须在最近 30 天之内');
    // the server's (server/auth/policy.ts): said from the server namespace
    await loadLocale('zh-CN');
    expect(zh(fill('password.usedBefore', 'must not be one of your last {n} passwords', { n: 5 }))).toBe('不能是您最近用过的 5 个密码之一');
    // a door's wiring (server/resources/boardPoints.ts, issue 47): a board of another controller, a point taken, and the two fixed ones
    expect(zh(fill('board.otherController', 'is a board of another controller ({name})', { name: 'Riser board' }))).toBe('是另一个控制器的板（Riser board）');
    expect(zh(fill('board.pointTaken', 'is already taken on this board (by {name})', { name: 'Lobby strike' }))).toBe('此板上的该点已被占用（Lobby strike）');
    expect(zh(fill('board.pointRequired', 'is required on a board', {}))).toBe('接到板上时为必填项');
    expect(zh(fill('board.isElevator', 'is an elevator board: wire it to a reader interface or an I/O board', {}))).toBe('是电梯板：请接到读卡器接口或 I/O 板');
    // their English alone is no key (issue 48: the server sends the key, nothing finds it again by the words)
    expect(zh({ message: 'is required on a board' })).toBe('is required on a board');
  });

  it('the "Why?" of a decision is said in Chinese step by step, each detail by its key with its values in place (issue 48)', async () => {
    await loadLocale('zh-CN');
    const { decide, EMPTY_STATE } = await import('../../access/engine');
    const { SpecialCalendar } = await import('../../access/schedule');
    const { STANDARD_FORMATS } = await import('../../contract/cardFormat');
    const { stepDetail } = await import('../screens/configure/WhyDrawer');
    const credential = { id: 1, identityId: 7, number: '4242', facilityCode: null, status: 'active', validFrom: null, validTo: null };
    const index = {
      timeZone: 'UTC',
      credentials: new Map([['4242', credential]]),
      identities: new Map([[7, { id: 7, name: 'Nurul', status: 'active', validFrom: null, validTo: null, pin: null }]]),
      doors: new Map([
        [1, { id: 1, name: 'Lab', mode: 'card' as const, formatIds: [26, 34], entryZoneId: null, exitZoneId: null, interlockIds: [], qrSecret: null }],
      ]),
      groupsOf: new Map([[7, [3]]]),
      groups: new Map([[3, { id: 3, name: 'Staff', doors: new Map([[1, 5]]) }]]),
      schedules: new Map([[5, { id: 5, name: 'Office hours', windows: [{ day: 1, start: '08:00', end: '18:00' }], special: {} }]]),
      calendar: new SpecialCalendar([]),
      zones: new Map(),
      interlocks: new Map(),
      formats: new Map([
        [26, { id: 26, ...STANDARD_FORMATS[0] }],
        [34, { id: 34, ...STANDARD_FORMATS[1] }],
      ]),
      qrPeriodS: 30,
    };
    // Monday 23 November 2026, 20:00 UTC: after Office hours
    const at = Date.parse('2026-11-23T20:00:00Z');
    const late = decide(index, EMPTY_STATE, { doorId: 1, at, presented: { kind: 'card', number: '4242' } });
    expect(late.reason).toBe('outside-schedule');
    expect(late.steps.map((s) => stepDetail(s, 'zh-CN'))).toEqual([
      '凭证 4242 有效',
      'Nurul 有效',
      'Lab：仅刷卡',
      '门禁组：Staff',
      'Staff：Office hours 在星期一：08:00–18:00',
    ]);
    // English as it was, for the logs and the API
    expect(late.steps.map((s) => stepDetail(s, 'en'))).toEqual([
      'credential 4242 is active',
      'Nurul is active',
      'Lab: card only',
      'Staff',
      'Staff: Office hours on Monday: 08:00–18:00',
    ]);
    // a word among the values said in the language (the credential's state)
    const suspended = decide({ ...index, credentials: new Map([['4242', { ...credential, status: 'suspended' }]]) }, EMPTY_STATE, {
      doorId: 1,
      at,
      presented: { kind: 'card', number: '4242' },
    });
    expect(stepDetail(suspended.steps.at(-1)!, 'zh-CN')).toBe('凭证 4242 已暂停');
    // a card no format of the reader decodes: each format's reason by its own key, the next inside it
    const raw = decide(index, EMPTY_STATE, { doorId: 1, at, presented: { kind: 'raw', bits: '0101' } });
    expect(raw.steps.at(-1)!.detail).toBe('Wiegand 26 (H10301): 4 bits, Wiegand 26 (H10301) has 26; Wiegand 34: 4 bits, Wiegand 34 has 34');
    expect(stepDetail(raw.steps.at(-1)!, 'zh-CN')).toBe('Wiegand 26 (H10301)：4 位，Wiegand 26 (H10301) 为 26 位；Wiegand 34：4 位，Wiegand 34 为 34 位');
    // a chain an older edge sent up (no key) is said as its English
    expect(stepDetail({ check: 'schedule', ok: false, detail: 'Staff: Office hours on Monday: 08:00–18:00' }, 'zh-CN')).toBe(
      'Staff: Office hours on Monday: 08:00–18:00',
    );
  });

  it('are said in Chinese by their key, values filled in and translated when they are words the console knows', async () => {
    await loadLocale('zh-CN');
    const { say, saySentence } = await import('./index');
    const { fillTemplate } = await import('../../contract');
    const s = (code: string, template: string, values: Record<string, string | number>) => ({ message: fillTemplate(template, values), code, values });
    expect(saySentence(s('access.notInside', 'That person is not inside {zone}', { zone: 'Vault' }), 'zh-CN')).toBe('此人不在 Vault 内');
    expect(saySentence(s('record.notFound', '{what} not found', { what: 'Access zone' }), 'zh-CN')).toBe(
      `找不到该${tCat('resource.accessZones.one', 'Access zone', 'zh-CN')}`,
    );
    expect(saySentence(s('record.stillUsedBy', 'Still used by {n} {what}: change or delete them first', { n: 3, what: 'doors' }), 'zh-CN')).toBe(
      '仍被 3 个门使用：请先修改或删除它们',
    );
    // what still uses a division: each count and word a sentence of its own (server/resources/divisions.ts), the next inside it
    const { fill, sentenceValue } = await import('../../contract');
    const uses = fill('division.usesMore', '{n} {what}, {more}', {
      n: 1,
      what: 'operator grant',
      ...sentenceValue('more', fill('division.uses', '{n} {what}', { n: 2, what: 'role privileges ticked' })),
    });
    const division = fill('division.stillUsedBy', 'Still used by {what} in this division: change or delete them first', sentenceValue('what', uses));
    expect(division.message).toBe('Still used by 1 operator grant, 2 role privileges ticked in this division: change or delete them first');
    expect(saySentence(division, 'zh-CN')).toBe('此部门中仍有1 个操作员授权、2 个已勾选的角色权限在使用：请先修改或删除它们');
    // a value is a word or a name, never English taken apart (a list or a count in it stays as given)
    expect(
      saySentence(s('division.stillUsedBy', 'Still used by {what} in this division: change or delete them first', { what: '1 door, 2 readers' }), 'zh-CN'),
    ).toBe('此部门中仍有1 door, 2 readers在使用：请先修改或删除它们');
    expect(saySentence(s('record.alreadyInState', '{name} is already {state}', { name: 'Walks Through', state: 'signed in' }), 'zh-CN')).toBe(
      'Walks Through 已签到',
    );
    expect(saySentence(s('door.alreadyLocked', '{door} is already locked.', { door: 'Car Park Gate' }), 'zh-CN')).toBe('Car Park Gate 已锁定。');
    expect(
      saySentence(
        s(
          'license.limitReached',
          'License limit reached: {seat} seats {seats} ({used} in use, {free} free); adding {adding} would exceed it. Ask for a license with more {seat} seats.',
          { seat: 'doors', seats: 10, used: 10, free: 0, adding: 1 },
        ),
        'zh-CN',
      ),
    ).toBe('已达到许可证上限：门席位 10 个（已用 10 个，空闲 0 个）；再添加 1 个将超出上限。请申请更多门席位的许可证。');
    // English is the server's own; a key the console does not know is the server's English; a value holding braces is
    // not interpolated again
    expect(saySentence(s('access.notInside', 'That person is not inside {zone}', { zone: 'Vault' }), 'en')).toBe('That person is not inside Vault');
    expect(saySentence(s('access.somethingNew', 'Nothing like {this} is known', { this: 'that' }), 'zh-CN')).toBe('Nothing like that is known');
    expect(saySentence(s('access.notInside', 'That person is not inside {zone}', { zone: '{n}' }), 'zh-CN')).toBe('此人不在 {n} 内');
    // a refusal's text alone is never said by a key found again from its English, even after the transport read an
    // answer that said it with its key (src/i18n/said.ts did that, the last fallback; gone): the key travels with it
    const { ApiError } = await import('../api/errors');
    const lobby = { status: 409, message: 'That person is not inside Lobby', code: 'access.notInside', values: { zone: 'Lobby' } };
    const refusal = new ApiError({ status: 409, message: lobby.message, body: lobby });
    expect(say('That person is not inside Lobby', 'zh-CN')).toBe('That person is not inside Lobby');
    expect(say(refusal.sentence!, 'zh-CN')).toBe('此人不在 Lobby 内');
    const taken = { field: 'address', message: 'Bus address 3 is R1’s on this controller', code: 'osdp.addressTaken', values: { address: 3, name: 'R1' } };
    const refused = new ApiError({
      status: 400,
      message: taken.message,
      violations: [taken],
      body: { status: 400, message: 'Validation failed', violations: [taken] },
    });
    expect(say('Bus address 3 is R1’s on this controller', 'zh-CN')).toBe('Bus address 3 is R1’s on this controller');
    expect(say(refused.sentence!, 'zh-CN')).toBe('此控制器的总线地址 3 已属于 R1');
    expect(existsSync(join(__dirname, 'said.ts'))).toBe(false);
    expect(say('Access group not found', 'zh-CN')).toBe('找不到该门禁组'); // a fixed sentence by its English (the text namespace)
    // a machine keeps a refusal's sentence (threat levels, door QR codes: machines/notProvided.ts errorSaid) and the view
    // says it by its key; its English was never noted, so nothing is found by matching it
    const { errorSaid } = await import('../../machines/notProvided');
    const roof = Object.assign(new Error('That person is not inside Roof'), {
      sentence: { message: 'That person is not inside Roof', code: 'access.notInside', values: { zone: 'Roof' } },
    });
    expect(say('That person is not inside Roof', 'zh-CN')).toBe('That person is not inside Roof');
    expect(say(errorSaid(roof, 'The command failed.'), 'zh-CN')).toBe('此人不在 Roof 内');
    expect(say(errorSaid(roof, 'The command failed.'), 'en')).toBe('That person is not inside Roof');
    expect(errorSaid(new Error('offline'), 'The command failed.')).toBe('offline');
  });
});

describe("the server's event messages", () => {
  it('every event label, access decision and device state has its zh-CN word (the {event} of an event message)', async () => {
    const { EVENT_CODES, STATUS_CODES, eventLabel } = await import('../../contract');
    const { DECISION_LABELS } = await import('../../contract/decision');
    const { zhEventWords } = await import('./events');
    const labels = [
      ...Object.values(EVENT_CODES).map((c) => eventLabel(c)),
      ...Object.values(DECISION_LABELS),
      ...Object.values(STATUS_CODES).map((c) => c.label),
    ];
    expect(labels.filter((l) => !CJK.test(zhEventWords[l] ?? ''))).toEqual([]);
  });

  // every event the server records (pipeline.record and recordMany, and the ingest's intrusions) is worded by fill():
  // its key and values are stored beside the English, so the console says it in the operator's language (issue 48)
  it('are worded by fill(), never a literal or template, wherever the server records an event or an edge journals one', () => {
    const records: string[] = [];
    // the server's pipeline.record and recordMany; the edge controller's journal.append (and its readers' record), whose
    // events reach the console through the device interface
    const callers = [
      ...serverFiles().map((x) => ({ ...x, call: /\.record(?:Many)?\(/g })),
      ...serverFiles('edge').map((x) => ({ ...x, call: /\.(?:append|record)\(/g })),
    ];
    for (const { f, text, call: callRe } of callers)
      for (const m of text.matchAll(callRe)) {
        let depth = 0;
        let end = m.index + m[0].length - 1;
        for (; end < text.length; end++) {
          if (text[end] === '(') depth++;
          else if (text[end] === ')' && --depth === 0) break;
        }
        const call = text.slice(m.index, end + 1);
        // an event's own object literal, not one passed on (`record(clientId, input)`)
        for (const w of call.matchAll(/\bmessage:\s*([`'"][^\n]*)/g)) records.push(`${f.split(/\/(?=server\/|edge\/)/)[1]}: ${w[1].slice(0, 60)}`);
      }
    // an edge's journal entry built whole (the lost events' gap)
    for (const { f, text } of serverFiles('edge'))
      for (const w of text.matchAll(/: JournalEntry = \{[^}]*\bmessage:\s*([`'"][^\n]*)/g)) records.push(`${f.split(/\/(?=edge\/)/)[1]}: ${w[1].slice(0, 60)}`);
    for (const { f, text } of serverFiles())
      for (const w of text.matchAll(/\beventCode: EVENT_CODES\.intrusion,[^}]*\bmessage:\s*([`'"][^\n]*)/g))
        records.push(`${f.split('/server/')[1]}: ${w[1].slice(0, 60)}`);
    expect(serverFiles().filter(({ text }) => /\.record\(/.test(text)).length).toBeGreaterThan(5); // the scan finds the callers
    expect(serverFiles('edge').filter(({ text }) => /journal\.append\(/.test(text)).length).toBeGreaterThanOrEqual(3);
    // none left English: the edge's doors (doorIo.ts) and OSDP readers (readers.ts) are keyed too (issue 47)
    expect(records).toEqual([]);
  });

  // who a door command or an output's pulse is by (the {actor} of its event) is a user name or a sentence with its key
  // (fill), never English words in a literal or template: they would stay English inside a translated sentence
  it('name what acted on a door or an output by a sentence with its key, never English words (issue 48)', () => {
    const found: string[] = [];
    let calls = 0;
    for (const { f, text } of serverFiles())
      for (const m of text.matchAll(/\b(?:simulator|port)\.command\(|\bcommandEach\(|\.pulseOutput\(/g)) {
        if (/function |async \(/.test(text.slice(Math.max(0, m.index - 20), m.index))) continue;
        let depth = 0;
        let end = m.index + m[0].length - 1;
        for (; end < text.length; end++) {
          if (text[end] === '(') depth++;
          else if (text[end] === ')' && --depth === 0) break;
        }
        calls++;
        // its arguments less the sentences made in them: a template, or a quoted literal of more than one word (the
        // commands are one word: 'lock', 'momentary-unlock')
        const args = text.slice(m.index, end + 1).replace(/\bfill\((?:[^()]|\([^()]*\))*\)/g, 'fill()');
        for (const w of args.matchAll(/`[^`]*`|'[^'\n]* [^'\n]*'/g)) found.push(`${f.split('/server/')[1]}: ${w[0]}`);
      }
    for (const { f, text } of serverFiles()) for (const w of text.matchAll(/\bconst by = `[^`]*`/g)) found.push(`${f.split('/server/')[1]}: ${w[0]}`);
    expect(calls).toBeGreaterThanOrEqual(9); // the scan finds the callers (doors, threat levels, overrides, schedules, blocks)
    expect(found).toEqual([]);
  });

  it('are said in Chinese by their key, the event label translated; an event stored without one keeps its English', async () => {
    await loadLocale('zh-CN');
    const { sayEvent } = await import('./index');
    const unlocked = {
      message: 'Door unlocked at Main Entrance by operator',
      messageCode: 'event.atDoorBy',
      messageValues: { event: 'Door unlocked', door: 'Main Entrance', actor: 'operator' },
    };
    expect(sayEvent(unlocked, 'zh-CN')).toBe('Main Entrance：门已解锁，操作人 operator');
    expect(sayEvent(unlocked, 'en')).toBe('Door unlocked at Main Entrance by operator');
    expect(sayEvent({ message: 'Door unlocked at Main Entrance by operator' }, 'zh-CN')).toBe('Door unlocked at Main Entrance by operator');
    // by what acted, not a person: the actor is a sentence of its own (contract sentenceValue), said by its key too
    const { fill, sentenceValue } = await import('../../contract');
    const bySchedule = fill('event.atDoorBy', '{event} at {door} by {actor}', {
      event: 'Door unlocked',
      door: 'Lobby',
      ...sentenceValue('actor', fill('actor.unlockSchedule', 'unlock schedule {name}', { name: 'Office hours' })),
    });
    expect(bySchedule.message).toBe('Door unlocked at Lobby by unlock schedule Office hours');
    const scheduled = { message: bySchedule.message, messageCode: bySchedule.code, messageValues: bySchedule.values };
    expect(sayEvent(scheduled, 'zh-CN')).toBe('Lobby：门已解锁，操作人 解锁时段 Office hours');
    expect(sayEvent(scheduled, 'en')).toBe('Door unlocked at Lobby by unlock schedule Office hours');
    const firstIn = fill('event.atDoorBy', '{event} at {door} by {actor}', {
      event: 'Door unlocked',
      door: 'Lab',
      ...sentenceValue('actor', fill('actor.firstPersonIn', 'first person in ({who}), unlock schedule {name}', { who: 'a valid card', name: 'Lab hours' })),
    });
    expect(sayEvent({ message: firstIn.message, messageCode: firstIn.code, messageValues: firstIn.values }, 'zh-CN')).toBe(
      'Lab：门已解锁，操作人 第一人进入（一张有效卡），解锁时段 Lab hours',
    );
    const pulsed = fill('event.outputPulsed', '{event}: {output}, pulsed by {actor} for {seconds} s', {
      event: 'Output active',
      output: 'Siren',
      seconds: 5,
      ...sentenceValue('actor', fill('actor.logicalBlock', 'logical block {name}', { name: 'Fire doors' })),
    });
    expect(sayEvent({ message: pulsed.message, messageCode: pulsed.code, messageValues: pulsed.values }, 'zh-CN')).toBe(
      'Siren：输出激活，由 逻辑块 Fire doors 触发脉冲 5 秒',
    );
    // a person's user name is the value as it is
    expect(sentenceValue('actor', 'admin')).toEqual({ actor: 'admin' });
    const denied = {
      message: 'Access denied: unknown credential: unknown card (card 123) at Lobby',
      messageCode: 'event.swipeCard',
      messageValues: { event: 'Access denied: unknown credential', who: 'unknown card', card: 123, door: 'Lobby' },
    };
    expect(sayEvent(denied, 'zh-CN')).toBe('Lobby：拒绝通行：未知凭证：未知卡（卡 123）');
    // an edge's own events (edge/), as the device interface stores them: a swipe it decided offline (when beside it)
    const offline = {
      message: 'Access denied: outside schedule: Ann Lee (card 77) at Vault (offline at 2026-12-01T08:00:00.000Z)',
      messageCode: 'event.swipeCard',
      messageValues: { event: 'Access denied: outside schedule', who: 'Ann Lee', card: '77', door: 'Vault', offlineAt: '2026-12-01T08:00:00.000Z' },
    };
    expect(sayEvent(offline, 'zh-CN')).toBe('Vault：拒绝通行：不在时间表内：Ann Lee（卡 77）（离线时发生于 2026-12-01T08:00:00.000Z）');
    expect(sayEvent(offline, 'en')).toBe(offline.message);
    const lost = {
      message: 'Edge events lost while offline: 12, from 2026-11-01 08:00 UTC to 2026-11-02 09:30 UTC',
      messageCode: 'event.edgeEventsLost',
      messageValues: { event: 'Edge events lost while offline', count: 12, from: '2026-11-01 08:00 UTC', to: '2026-11-02 09:30 UTC' },
    };
    expect(sayEvent(lost, 'zh-CN')).toBe('Edge 离线期间丢失了事件：12 条，从 2026-11-01 08:00 UTC 到 2026-11-02 09:30 UTC');
    const filling = {
      message: 'Edge journal 80 % full: Gate A holds 800 undelivered events (80 % of 1000)',
      messageCode: 'event.edgeJournalShare',
      messageValues: { event: 'Edge journal 80 % full', controller: 'Gate A', count: 800, share: 80, limit: 1000 },
    };
    expect(sayEvent(filling, 'zh-CN')).toBe('Edge 日志已满 80%：Gate A 保存了 800 条未送达的事件（占 1000 条的 80%）');
    const soft = {
      message: 'Anti-passback violation (let through): unknown (card 9) at Lobby (offline: anti-passback is soft)',
      messageCode: 'event.antiPassbackSoftOffline',
      messageValues: { event: 'Anti-passback violation (let through)', who: 'unknown', card: '9', door: 'Lobby' },
    };
    expect(sayEvent(soft, 'zh-CN')).toBe('Lobby：违反防反传（已放行）：未知（卡 9）（离线：防反传为软模式）');
  });
});

describe('alarm instructions', () => {
  it('the built-in ones have a key of the scheme and their zh-CN; a person’s have none and are shown as written', async () => {
    await loadLocale('zh-CN');
    const { DEFAULT_ALARM_TYPES, DEFAULT_INSTRUCTIONS_KEYS, SENTENCE_KEY, defaultInstructionsCode } = await import('../../contract');
    const { zhSentences } = await import('./sentences');
    const { sayInstructions } = await import('./index');
    expect(DEFAULT_INSTRUCTIONS_KEYS.size).toBe(DEFAULT_ALARM_TYPES.length);
    for (const t of DEFAULT_ALARM_TYPES) {
      const code = defaultInstructionsCode(t.eventCode, t.instructions)!;
      expect([t.name, SENTENCE_KEY.test(code ?? ''), CJK.test(zhSentences[code] ?? '')]).toEqual([t.name, true, true]);
      expect(sayInstructions({ instructions: t.instructions, instructionsCode: code }, 'zh-CN')).toBe(zhSentences[code]);
      expect(sayInstructions({ instructions: t.instructions, instructionsCode: code }, 'en')).toBe(t.instructions);
    }
    const forced = DEFAULT_ALARM_TYPES[0];
    expect(defaultInstructionsCode(forced.eventCode, `${forced.instructions} Ring Sam on 555.`)).toBeUndefined();
    expect(defaultInstructionsCode(forced.eventCode, null)).toBeUndefined();
    expect(sayInstructions({ instructions: 'Ring Sam on 555.' }, 'zh-CN')).toBe('Ring Sam on 555.');
  });
});

describe('say()', () => {
  it('translates a sentence the dictionary has, and shows any other exactly as given, braces and all', async () => {
    const { say } = await import('./index');
    expect(say('This door is locked down: release the lockdown first', 'zh-CN')).toBe('此门已封锁：请先解除封锁');
    expect(say('This door is locked down: release the lockdown first', 'en')).toBe('This door is locked down: release the lockdown first');
    expect(say('The JSON body must not hold {"__proto__": 1}', 'zh-CN')).toBe('The JSON body must not hold {"__proto__": 1}');
  });
});

// A machine that shows a server's refusal keeps it as the sentence it came with (machines/notProvided.ts errorSaid), so
// the view says it by its key: never by finding the key again from its English (nothing in the console does)
describe("a server's refusal kept by a machine", () => {
  const machineFiles = () => serverFiles('machines');
  it('is kept as its sentence: no machine keeps a refusal as its English (errorText) but those named, whose words are not the server’s', () => {
    // the desktop companion's connection (its own words, not a server's), a journal replayed in the browser
    const NOT_THE_SERVERS = ['companion.ts', 'journal.ts'];
    const users = machineFiles()
      .filter(({ f, text }) => !f.endsWith('notProvided.ts') && /\berrorText\(/.test(text))
      .map(({ f }) => f.split('/machines/')[1]);
    expect(machineFiles().filter(({ text }) => /\berrorSaid\(/.test(text)).length).toBeGreaterThanOrEqual(14); // the scan reads them
    expect(users.filter((f) => !NOT_THE_SERVERS.includes(f))).toEqual([]);
    // nor does the code that provides the machines' actors pass a refusal on as its English (the events export's failure)
    const passedOn = serverFiles('src/system').flatMap(({ f, text }) =>
      [...text.matchAll(/\berror: [\w.]+\.error\.message\b/g)].map((m) => `${f.split('/src/')[1]}: ${m[0]}`),
    );
    expect(passedOn).toEqual([]);
    // nor makes a new error of a refusal's or the companion's words, its sentence left behind (the role's privileges
    // saved said `e.message`, a badge print the companion's failure)
    const rewritten = serverFiles('src/system').flatMap(({ f, text }) =>
      [...text.matchAll(/new Error\([^;]*?\b(?:e|err|error)\.message\b/g)].map((m) => `${f.split('/src/')[1]}: ${m[0]}`),
    );
    expect(rewritten).toEqual([]);
  });

  it('is said in Chinese by its key, though its English was never noted (a read, a badge print)', async () => {
    await loadLocale('zh-CN');
    const { createActor, fromPromise, waitFor } = await import('xstate');
    const { fill } = await import('../../contract');
    const { say } = await import('./index');
    const { readingMachine } = await import('../../machines/reading');
    const { badgePrintMachine } = await import('../../machines/badgePrint');
    const refusal = () =>
      Object.assign(new Error('That person is not inside Vault'), {
        sentence: fill('access.notInside', 'That person is not inside {zone}', { zone: 'Vault' }),
      });
    const refuse = fromPromise<any, any>(async () => {
      throw refusal();
    });
    const read = createActor(readingMachine.provide({ actors: { read: refuse } }), { input: null }).start();
    await waitFor(read, (s) => s.matches('failed'));
    expect(say(read.getSnapshot().context.error!, 'zh-CN')).toBe('此人不在 Vault 内');
    expect(say(read.getSnapshot().context.error!, 'en')).toBe('That person is not inside Vault');
    const badge = createActor(badgePrintMachine.provide({ actors: { print: refuse } }), {
      input: { visitorId: 1, printedAt: null, visitor: { name: 'A' } as never },
    }).start();
    badge.send({ type: 'badge.print' });
    await waitFor(badge, (s) => s.matches('failed'));
    expect(say(badge.getSnapshot().context.error!, 'zh-CN')).toBe('此人不在 Vault 内');
    // a refusal whose sentence is not its words is kept as its words
    const other = fromPromise<any, any>(async () => {
      throw Object.assign(new Error('Something else'), { sentence: refusal().sentence });
    });
    const read2 = createActor(readingMachine.provide({ actors: { read: other } }), { input: null }).start();
    await waitFor(read2, (s) => s.matches('failed'));
    expect(read2.getSnapshot().context.error).toBe('Something else');
  });
});

// The desktop companion's own words (machines/companion.ts), in the header's tooltip, its toasts and a badge print's
// failure: sentences with their key, said in the operator's language (issue 48; they were English in 简体中文)
describe("the desktop companion's words", () => {
  it('are sentences with their key, said in Chinese: nobody answered, a command it cannot do', async () => {
    await loadLocale('zh-CN');
    const { createActor, fromCallback, fromPromise, waitFor } = await import('xstate');
    const { companionMachine } = await import('../../machines/companion');
    const { say } = await import('./index');
    const refused = fromPromise<any, any>(async () => {
      throw new Error('refused');
    });
    const lonely = createActor(
      companionMachine.provide({ actors: { shufflePorts: fromPromise(async () => [1]), probePort: refused, messages: fromCallback(() => {}) } }),
      { input: { ports: [1] } },
    ).start();
    await waitFor(lonely, (s) => s.matches('waiting'));
    const error = lonely.getSnapshot().context.error!;
    expect(error).toMatchObject({ code: 'companion.noAnswer', message: 'No desktop companion answered on this computer' });
    expect(say(error, 'zh-CN')).toBe('此电脑上没有桌面助手应答');
    lonely.stop();
    // connected without the camera: a photo asked for is refused in words, with its key
    const heard: { type: string; sentence?: Parameters<typeof say>[0] }[] = [];
    const found = createActor(
      companionMachine.provide({
        actors: {
          shufflePorts: fromPromise(async () => [1]),
          probePort: fromPromise<unknown, any>(async () => ({})),
          messages: fromCallback(({ sendBack }) => {
            sendBack({ type: 'socket.message', data: JSON.stringify({ type: 'hello', version: '1.0.0', capabilities: ['badge.print'] }) });
          }),
        },
      }),
      { input: { ports: [1] } },
    );
    found.on('*', (e) => heard.push(e as never));
    found.start();
    await waitFor(found, (s) => s.hasTag('usable'));
    found.send({ type: 'companion.capturePhoto', purpose: 'identity' });
    const failed = heard.find((e) => e.type === 'companion.failed')!;
    expect(failed.sentence).toMatchObject({ code: 'companion.cannotCapturePhotos', message: 'The desktop companion cannot capture photos' });
    expect(say(failed.sentence!, 'zh-CN')).toBe('桌面助手无法拍摄照片');
    found.stop();
  });
});

// The journal replay's own words (machines/journal.replay.ts, journal.ts): the replay screen's refusal and divergence
// were English in 简体中文 (issue 48)
describe("the journal replay's words", () => {
  it('are sentences with their key, said in Chinese: a file refused names it, the replay’s reason inside', async () => {
    await loadLocale('zh-CN');
    const { createActor, waitFor } = await import('xstate');
    const { replayViewerMachine, replayJournal } = await import('../../machines/journal');
    const { say } = await import('./index');
    const header = JSON.stringify({ kind: 'gatehouse-journal', version: 1, app: '0.0.1', startedAt: 0 });
    const empty = replayJournal(`${header}\n`);
    expect(empty).toMatchObject({ ok: false, said: { code: 'journal.noEvents' } });
    const viewer = createActor(replayViewerMachine).start();
    viewer.send({ type: 'journal.load', name: 'a.ndjson', text: `${header}\n` });
    await waitFor(viewer, (s) => s.context.loading === null && s.context.error !== null);
    const error = viewer.getSnapshot().context.error!;
    expect(error.message).toBe('a.ndjson: the journal has a header but no events');
    expect(say(error, 'zh-CN')).toBe('a.ndjson：此日志只有文件头，没有事件');
    viewer.stop();
    // a file the parse refuses (contract/journal.ts): its problem said by its own key inside, never its English
    const cut = replayJournal(`${header}\n{"seq":`);
    expect(cut).toMatchObject({ ok: false, message: 'line 2 is not valid JSON (the file looks truncated)', said: { code: 'journal.unreadable' } });
    if (cut.ok) throw new Error('refused above');
    expect(say(cut.said, 'zh-CN')).toBe('无法读取此日志：第 2 行不是有效的 JSON（文件似乎被截断）');
    const backwards = replayJournal(
      `${header}\n${JSON.stringify({ seq: 2, at: 0, actor: 'root', event: { type: 'x' }, state: 'on' })}\n${JSON.stringify({ seq: 1, at: 0, actor: 'root', event: { type: 'x' }, state: 'on' })}`,
    );
    if (backwards.ok) throw new Error('refused: its seq goes back');
    expect(say(backwards.said, 'zh-CN')).toMatch(/^无法读取此日志：第 3 行的序号为 1，不在上一行的 2 之后$/);
  });
});

// The contract's fixed violations ("is required", "must be a whole number", a superstruct rule's words): each carries its
// key from its source (contract/primitives.ts FIXED_SAID, schemas.ts), and the console says it by the key, never by
// finding it again from its English (issue 48)
describe("the contract's fixed violations", () => {
  const contractFills = () => {
    const out = new Map<string, string>();
    for (const { text } of serverFiles('contract')) for (const m of text.matchAll(/(?<![.\w])fill\(\s*'([^'\\]+)',\s*'([^'\\]+)'/g)) out.set(m[2], m[1]);
    return out;
  };
  it('are made with their key where they are made: no literal message in the validators, none written again by the server', () => {
    const validators = ['primitives.ts', 'schemas.ts'].map((f) => readFileSync(join(__dirname, '..', '..', 'contract', f), 'utf8')).join('\n');
    expect(validators).toContain('FIXED_SAID');
    // a problem returned as words (return 'must …', || 'is …', a rule's 'has …' in a map) instead of a sentence with its key
    expect([...validators.matchAll(/(?:return|\|\||\?\?|:)\s*['`](?:must|is|has|could) [^'`]*['`]/g)].map((m) => m[0])).toEqual([]);
    // nor in what the catalogue derives (a pattern's format, a rule's check, a user-defined field's values): a violation's
    // message is a sentence with its key (a rule's by its catalogue key), never a literal or a template
    const derived = ['derive.ts', 'userFieldValues.ts', 'patternMessage.ts'].map((f) =>
      readFileSync(join(__dirname, '..', '..', 'contract', 'resources', f), 'utf8'),
    );
    expect(derived.join('\n')).toContain("fill('udf.notOneOf'");
    const worded = derived.flatMap((text) => [
      ...[...text.matchAll(/\bmessage: ([`'"][^\n]*)/g)].map((m) => m[1]),
      ...[...text.matchAll(/(?:return|\|\||\?\?)\s*([`'"](?:must|is|has|could) [^\n]*)/g)].map((m) => m[1]),
    ]);
    expect(worded).toEqual([]);
    // the server and the console's forms say the contract's fixed words by its sentence, never as a literal again
    const templates = [...contractFills().keys()];
    expect(templates.length).toBeGreaterThanOrEqual(40);
    const files = [...serverFiles('server'), ...serverFiles('src'), ...serverFiles('contract')];
    const again = files.flatMap(({ f, text }) =>
      [...text.matchAll(/message: '([^'\\]+)'/g)]
        .filter((m) => templates.includes(m[1]))
        .map((m) => `${f.split(/\/(?=server\/|src\/|contract\/)/)[1]}: ${m[1]}`),
    );
    expect(again).toEqual([]);
  });

  it('are said in Chinese by their key only: their English alone is no key', async () => {
    await loadLocale('zh-CN');
    const { zhViolations } = await import('./violations');
    const fills = contractFills();
    // the English-keyed table holds none of the contract's sentences (it is for the server's own still without a key)
    expect(Object.keys(zhViolations).filter((en) => fills.has(en))).toEqual([]);
    const { validate, idInt, requiredText, FIXED_SAID } = await import('../../contract');
    const { object } = await import('superstruct');
    const refused = validate({ name: '  ', id: 1.5 }, object({ name: requiredText(20), id: idInt(), flag: object({}) }));
    expect(refused.ok).toBe(false);
    const violations = refused.ok ? [] : refused.violations;
    expect(violations.map((v) => [v.field, v.code])).toEqual([
      ['name', 'value.required'],
      ['id', 'number.notWhole'],
      ['flag', 'value.required'],
    ]);
    const zh = (v: Parameters<typeof violationText>[0]) => violationText(v, 'zh-CN', (k, e) => tCat(k, e, 'zh-CN'));
    expect(violations.map(zh)).toEqual(['为必填项', '必须是整数', '为必填项']);
    // the same words without their key stay as they are: nothing finds the key by them
    expect(zh({ message: 'is required' })).toBe('is required');
    expect(zh(FIXED_SAID.notWhole)).toBe('必须是整数');
  });
});
