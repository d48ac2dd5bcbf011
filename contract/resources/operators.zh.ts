// zh-CN labels of the resources declared in ./operators.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.operators.one': '操作员',
  'resource.operators.many': '操作员',
  'resource.operators.field.username': '用户名',
  'resource.operators.field.name': '姓名',
  'resource.operators.field.email': '邮箱',
  'resource.operators.field.disabled': '已停用',
  'resource.operators.field.createdAt': '创建时间',
  'resource.operators.field.shared': '也在其他客户',
  'resource.operators.field.accountLocked': '账户更改',
  'resource.operators.form.0.title': '操作员',
} satisfies Record<string, string>;
