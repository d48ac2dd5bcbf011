// zh-CN labels of the resources declared in ./accessZones.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.accessZones.one': '门禁区域',
  'resource.accessZones.many': '门禁区域',
  'resource.accessZones.field.name': '名称',
  'resource.accessZones.unique.name': '已被另一个区域使用',
  'resource.accessZones.field.description': '说明',
  'resource.accessZones.field.antiPassback': '防潜回',
  'resource.accessZones.choice.antiPassback.off': '关闭',
  'resource.accessZones.choice.antiPassback.soft': '软（报警）',
  'resource.accessZones.choice.antiPassback.hard': '硬（拒绝）',
  'resource.accessZones.field.forgiveMinutes': '多少分钟后重置',
  'resource.accessZones.help.forgiveMinutes': '0：不按时间重置',
  'resource.accessZones.field.edgeSoftDoors': 'Edge 离线时防潜回为软模式的门数',
  'resource.accessZones.field.edgeSoftControllers': '离线的 Edge 控制器',
  'resource.accessZones.form.0.title': '区域',
  'resource.accessZones.form.0.description': '门通过进入读卡器通往区域，通过离开读卡器离开区域（在门上设置）。',
} satisfies Record<string, string>;
