// zh-CN labels of the resources declared in ./specialDates.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.specialDates.one': '特殊日期',
  'resource.specialDates.many': '特殊日期',
  'resource.specialDates.field.name': '名称',
  'resource.specialDates.placeholder.name': '新年',
  'resource.specialDates.field.date': '日期',
  'resource.specialDates.field.yearly': '每年',
  'resource.specialDates.field.kind': '类别',
  'resource.specialDates.choice.kind.holiday': '节假日',
  'resource.specialDates.choice.kind.half-day': '半天',
  'resource.specialDates.choice.kind.closure': '停业',
  'resource.specialDates.form.0.title': '特殊日期',
  'resource.specialDates.form.0.description': '在此日期，时间表按该类日期的时段执行。',
} satisfies Record<string, string>;
