// zh-CN labels of the resources declared in ./accessGroups.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.accessGroups.one': '门禁组',
  'resource.accessGroups.many': '门禁组',
  'resource.accessGroups.field.name': '名称',
  'resource.accessGroups.unique.name': '已被另一个门禁组使用',
  'resource.accessGroups.field.description': '说明',
  'resource.accessGroups.field.doors': '门',
  'resource.accessGroups.item.doors': '门',
  'resource.accessGroups.child.doors.field.doorId': '门',
  'resource.accessGroups.child.doors.field.scheduleId': '时间表',
  'resource.accessGroups.field.members': '成员',
  'resource.accessGroups.form.0.title': '门禁组',
  'resource.accessGroups.form.1.title': '门',
  'resource.accessGroups.form.1.description': '该组可以打开的每扇门及其开放的时间表。',
  'resource.accessGroups.form.2.title': '成员',
  'resource.accessGroups.form.2.description': '可以通过这些门的人员。',
} satisfies Record<string, string>;
