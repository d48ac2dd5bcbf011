// Catalogue labels (contract/resources) in zh-CN by derived key. The declarations stay pure data with English
// labels; the console looks a label up by `resource.<name>.…` and falls back to the declaration's English.
// src/i18n/catalogue.test.ts fails when any CATALOGUE resource, field, choice, help or message lacks zh-CN here,
// so a resource added later fails loudly until it is translated.
import { zhCatalogueMore } from './catalogue.more';
import { CATALOGUE, labelOf, type AnyField, type Fields, type ResourceDeclaration } from '../../contract';

/** The key prefix of a resource's fields (`child` set: the fields of its owned rows `child`). */
export const resourceBase = (resource: string, child?: string) => (child ? `resource.${resource}.child.${child}` : `resource.${resource}`);
export const catKey = {
  one: (r: string) => `resource.${r}.one`,
  many: (r: string) => `resource.${r}.many`,
  field: (base: string, f: string) => `${base}.field.${f}`,
  help: (base: string, f: string) => `${base}.help.${f}`,
  placeholder: (base: string, f: string) => `${base}.placeholder.${f}`,
  unique: (base: string, f: string) => `${base}.unique.${f}`,
  rule: (base: string, f: string) => `${base}.rule.${f}`,
  choice: (base: string, f: string, value: string) => `${base}.choice.${f}.${value}`,
  item: (r: string, f: string) => `resource.${r}.item.${f}`,
  formTitle: (r: string, i: number) => `resource.${r}.form.${i}.title`,
  formDescription: (r: string, i: number) => `resource.${r}.form.${i}.description`,
  addLabel: (r: string) => `resource.${r}.addLabel`,
  addTitle: (r: string) => `resource.${r}.addTitle`,
};

/** Placeholders with no words (a phone number's shape) read the same in every language. */
const hasWords = (s: string) => /[A-Za-z]{2,}/.test(s);

function fieldEntries(base: string, name: string, f: AnyField, out: Record<string, string>): void {
  out[catKey.field(base, name)] = labelOf(name, f);
  if (f.help) out[catKey.help(base, name)] = f.help;
  if (f.placeholder && hasWords(f.placeholder)) out[catKey.placeholder(base, name)] = f.placeholder;
  if (f.uniqueMessage) out[catKey.unique(base, name)] = f.uniqueMessage;
  for (const c of f.choices ?? []) out[catKey.choice(base, name, c.value)] = c.label;
}

/** Every English string of one declaration by its derived key. */
export function declarationEntries(d: ResourceDeclaration<any>): Record<string, string> {
  const out: Record<string, string> = {};
  const base = resourceBase(d.name);
  out[catKey.one(d.name)] = d.label.one;
  out[catKey.many(d.name)] = d.label.many;
  for (const [name, f] of Object.entries(d.fields as Fields)) {
    fieldEntries(base, name, f, out);
    if (f.kind === 'children' && f.children) {
      out[catKey.item(d.name, name)] = f.children.itemLabel;
      const cb = resourceBase(d.name, name);
      for (const [cn, cf] of Object.entries(f.children.fields)) fieldEntries(cb, cn, cf, out);
      for (const r of f.children.rules ?? []) out[catKey.rule(cb, r.field)] = r.message;
    }
  }
  for (const r of d.rules ?? []) out[catKey.rule(base, r.field)] = r.message;
  d.form.forEach((s, i) => {
    out[catKey.formTitle(d.name, i)] = s.title;
    if (s.description) out[catKey.formDescription(d.name, i)] = s.description;
  });
  if (d.screens?.addLabel) out[catKey.addLabel(d.name)] = d.screens.addLabel;
  if (d.screens?.addTitle) out[catKey.addTitle(d.name)] = d.screens.addTitle;
  return out;
}

export function enCatalogue(): Record<string, string> {
  return Object.assign({}, ...CATALOGUE.map(declarationEntries));
}

export const zhCatalogue: Record<string, string> = {
  ...zhCatalogueMore,
  "resource.clients.one": "客户",
  "resource.clients.many": "客户",
  "resource.clients.field.name": "名称",
  "resource.clients.field.code": "代码",
  "resource.clients.help.code": "2–20 位大写字母、数字、短横线或下划线",
  "resource.clients.unique.code": "已被其他客户使用",
  "resource.clients.field.timezone": "时区",
  "resource.clients.field.contactEmail": "联系邮箱",
  "resource.clients.field.address": "地址",
  "resource.clients.field.active": "启用",
  "resource.clients.form.0.title": "客户",
  "resource.divisions.one": "部门",
  "resource.divisions.many": "部门",
  "resource.divisions.field.name": "名称",
  "resource.divisions.field.parentId": "上级部门",
  "resource.divisions.form.0.title": "部门",
  "resource.divisions.help.parentId": "此部门所属的部门；留空：直接位于顶层部门之下",
  "resource.divisions.form.0.description": "移动部门会连同其中的一切一起移动；上级部门的授权在新位置同样覆盖它。",
  "resource.identities.one": "身份",
  "resource.identities.many": "身份",
  "resource.identities.field.firstName": "名",
  "resource.identities.field.lastName": "姓",
  "resource.identities.field.employeeNo": "工号",
  "resource.identities.help.employeeNo": "大写字母、数字和短横线",
  "resource.identities.unique.employeeNo": "已被其他身份使用",
  "resource.identities.field.idNumber": "证件号码",
  "resource.identities.field.email": "邮箱",
  "resource.identities.field.phone": "电话",
  "resource.identities.field.photo": "照片",
  "resource.identities.field.divisionId": "部门",
  "resource.identities.field.divisionName": "部门",
  "resource.identities.field.status": "状态",
  "resource.identities.choice.status.active": "有效",
  "resource.identities.choice.status.inactive": "停用",
  "resource.identities.choice.status.suspended": "暂停",
  "resource.identities.field.validFrom": "生效日期",
  "resource.identities.field.validTo": "失效日期",
  "resource.identities.field.credentials": "凭证",
  "resource.identities.item.credentials": "凭证",
  "resource.identities.child.credentials.field.type": "类型",
  "resource.identities.child.credentials.choice.type.card": "卡",
  "resource.identities.child.credentials.choice.type.pin": "密码 (PIN)",
  "resource.identities.child.credentials.choice.type.qr": "二维码",
  "resource.identities.child.credentials.choice.type.mobile": "手机",
  "resource.identities.child.credentials.field.number": "号码",
  "resource.identities.child.credentials.unique.number": "已发给其他身份",
  "resource.identities.child.credentials.field.facilityCode": "场地码",
  "resource.identities.child.credentials.field.validFrom": "生效日期",
  "resource.identities.child.credentials.field.validTo": "失效日期",
  "resource.identities.child.credentials.field.status": "状态",
  "resource.identities.child.credentials.choice.status.active": "有效",
  "resource.identities.child.credentials.choice.status.suspended": "暂停",
  "resource.identities.child.credentials.choice.status.lost": "挂失",
  "resource.identities.child.credentials.rule.validTo": "不能早于生效日期",
  "resource.identities.rule.validTo": "不能早于生效日期",
  "resource.identities.form.0.title": "人员",
  "resource.identities.form.1.title": "通行",
  "resource.identities.form.2.title": "凭证",
  "resource.identities.form.2.description": "此身份在读卡器上出示的卡、密码和二维码。",
  "resource.visitors.one": "访客",
  "resource.visitors.many": "访客",
  "resource.visitors.field.firstName": "名",
  "resource.visitors.field.lastName": "姓",
  "resource.visitors.field.idNumber": "证件号码",
  "resource.visitors.field.company": "公司",
  "resource.visitors.field.email": "邮箱",
  "resource.visitors.field.phone": "电话",
  "resource.visitors.field.photo": "照片",
  "resource.visitors.field.hostName": "被访人",
  "resource.visitors.placeholder.hostName": "来访要见的人",
  "resource.visitors.field.hostId": "被访人身份",
  "resource.visitors.field.purpose": "来访目的",
  "resource.visitors.choice.purpose.meeting": "会议",
  "resource.visitors.choice.purpose.delivery": "送货",
  "resource.visitors.choice.purpose.contractor": "承包商",
  "resource.visitors.choice.purpose.interview": "面试",
  "resource.visitors.choice.purpose.other": "其他",
  "resource.visitors.field.visitDate": "来访日期",
  "resource.visitors.help.visitDate": "胸卡有效期至当天结束。",
  "resource.visitors.field.validUntil": "有效期至",
  "resource.visitors.field.status": "状态",
  "resource.visitors.choice.status.expected": "预约中",
  "resource.visitors.choice.status.on-site": "在场",
  "resource.visitors.choice.status.left": "已离开",
  "resource.visitors.field.badgePrintedAt": "胸卡打印时间",
  "resource.visitors.field.createdBy": "登记人",
  "resource.visitors.field.signedInAt": "签到时间",
  "resource.visitors.field.signedOutAt": "签退时间",
  "resource.visitors.form.0.title": "访客",
  "resource.visitors.form.0.description": "读取访客的身份证以填入姓名、证件号码和照片，或手动输入。",
  "resource.visitors.form.1.title": "来访",
  "resource.visitors.addLabel": "登记访客",
  "resource.visitors.addTitle": "登记访客",
};
