// zh-CN labels of the resources declared in ./divisions.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.divisions.one': '部门',
  'resource.divisions.many': '部门',
  'resource.divisions.field.name': '名称',
  'resource.divisions.field.parentId': '上级部门',
  'resource.divisions.help.parentId': '此部门所属的部门；留空：直接位于顶层部门之下',
  'resource.divisions.form.0.title': '部门',
  'resource.divisions.form.0.description': '移动部门会连同其中的一切一起移动；上级部门的授权在新位置同样覆盖它。',
} satisfies Record<string, string>;
