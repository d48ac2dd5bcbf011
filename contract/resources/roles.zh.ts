// zh-CN labels of the resources declared in ./roles.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.roles.one': '角色',
  'resource.roles.many': '角色',
  'resource.roles.field.name': '名称',
  'resource.roles.unique.name': '已被另一个角色使用',
  'resource.roles.field.code': '代码',
  'resource.roles.help.code': '字母、数字和短横线',
  'resource.roles.unique.code': '已是另一个角色的代码',
  'resource.roles.field.description': '说明',
  'resource.roles.field.privilegeCount': '权限',
  'resource.roles.form.0.title': '角色',
  'resource.roles.form.0.description': '保存后，请用“分配权限”勾选其权限。',
} satisfies Record<string, string>;
