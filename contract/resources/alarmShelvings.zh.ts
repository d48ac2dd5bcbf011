// zh-CN labels of the resources declared in ./alarmShelvings.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.alarmShelvings.one': '报警搁置',
  'resource.alarmShelvings.many': '报警搁置',
  'resource.alarmShelvings.field.pointName': '报警源',
  'resource.alarmShelvings.field.eventPointId': '报警源编号',
  'resource.alarmShelvings.field.reason': '原因',
  'resource.alarmShelvings.field.minutes': '时长（分钟）',
  'resource.alarmShelvings.field.shelvedBy': '搁置人',
  'resource.alarmShelvings.field.shelvedAt': '搁置时间',
  'resource.alarmShelvings.field.until': '截止',
  'resource.alarmShelvings.field.state': '状态',
  'resource.alarmShelvings.choice.state.shelved': '已搁置',
  'resource.alarmShelvings.choice.state.expired': '已自动结束',
  'resource.alarmShelvings.choice.state.ended': '已由操作员结束',
  'resource.alarmShelvings.field.endedAt': '结束时间',
  'resource.alarmShelvings.field.endedBy': '结束人',
} satisfies Record<string, string>;
