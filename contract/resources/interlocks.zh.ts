// zh-CN labels of the resources declared in ./interlocks.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.interlocks.one': '互锁组',
  'resource.interlocks.many': '互锁组',
  'resource.interlocks.field.name': '名称',
  'resource.interlocks.unique.name': '已被另一个互锁组使用',
  'resource.interlocks.field.description': '说明',
  'resource.interlocks.field.doorIds': '门',
  'resource.interlocks.form.0.title': '互锁组',
  'resource.interlocks.form.0.description': '这些门中同一时间只能打开一扇。',
} satisfies Record<string, string>;
