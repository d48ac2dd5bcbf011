// zh-CN labels of the resources declared in ./alarmGroups.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.alarmGroups.one': '报警组',
  'resource.alarmGroups.many': '报警组',
  'resource.alarmGroups.field.name': '名称',
  'resource.alarmGroups.unique.name': '已被另一个报警组使用',
  'resource.alarmGroups.field.description': '说明',
  'resource.alarmGroups.field.inputIds': '输入',
  'resource.alarmGroups.field.state': '状态',
  'resource.alarmGroups.choice.state.armed': '已布防',
  'resource.alarmGroups.choice.state.disarmed': '已撤防',
  'resource.alarmGroups.field.stateChangedAt': '起始时间',
  'resource.alarmGroups.field.stateChangedBy': '操作人',
  'resource.alarmGroups.form.0.title': '报警组',
  'resource.alarmGroups.form.0.description': '一起布防和撤防的输入。新建的报警组处于撤防状态：请在报警区域页面布防。',
} satisfies Record<string, string>;
