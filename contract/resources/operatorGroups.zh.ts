// zh-CN labels of the resources declared in ./operatorGroups.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.operatorGroups.one': '操作员组',
  'resource.operatorGroups.many': '操作员组',
  'resource.operatorGroups.field.name': '名称',
  'resource.operatorGroups.unique.name': '已被另一个组使用',
  'resource.operatorGroups.field.description': '说明',
  'resource.operatorGroups.field.members': '成员',
  'resource.operatorGroups.field.grants': '角色',
  'resource.operatorGroups.item.grants': '角色',
  'resource.operatorGroups.child.grants.field.roleId': '角色',
  'resource.operatorGroups.child.grants.field.divisionId': '部门',
  'resource.operatorGroups.child.grants.help.divisionId': '留空：本客户的所有部门',
  'resource.operatorGroups.form.0.title': '组',
  'resource.operatorGroups.form.1.title': '成员',
  'resource.operatorGroups.form.1.description': '每个成员都拥有下面的角色。',
  'resource.operatorGroups.form.2.title': '角色',
  'resource.operatorGroups.form.2.description': '每个角色作用于一个部门（及其下级部门），或所有部门。',
} satisfies Record<string, string>;
