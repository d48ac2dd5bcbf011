// zh-CN labels of the resources declared in ./clients.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.clients.one': '客户',
  'resource.clients.many': '客户',
  'resource.clients.field.name': '名称',
  'resource.clients.field.code': '代码',
  'resource.clients.help.code': '2–20 位大写字母、数字、短横线或下划线',
  'resource.clients.unique.code': '已被其他客户使用',
  'resource.clients.field.timezone': '时区',
  'resource.clients.field.contactEmail': '联系邮箱',
  'resource.clients.field.address': '地址',
  'resource.clients.field.active': '启用',
  'resource.clients.form.0.title': '客户',
} satisfies Record<string, string>;
