// zh-CN labels of the resources declared in ./shiftSettings.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.shiftSettings.one': '班次设置',
  'resource.shiftSettings.many': '班次设置',
  'resource.shiftSettings.field.boundaries': '班次结束时间',
  'resource.shiftSettings.help.boundaries': '客户时区的时刻，24 小时制，用逗号分隔（1 到 12 个），例如 07:00, 15:00, 23:00',
  'resource.shiftSettings.form.0.title': '班次',
  'resource.shiftSettings.form.0.description': '在这些时刻，结束的班次将被交接：下一位操作员在仪表板上看到其摘要并确认。',
} satisfies Record<string, string>;
