// zh-CN labels of the resources declared in ./elevatorMasks.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.elevatorMasks.one': '电梯楼层屏蔽',
  'resource.elevatorMasks.many': '电梯楼层屏蔽',
  'resource.elevatorMasks.field.name': '名称',
  'resource.elevatorMasks.placeholder.name': '办公时间的大堂楼层',
  'resource.elevatorMasks.unique.name': '已被另一个电梯楼层屏蔽使用',
  'resource.elevatorMasks.field.readerId': '电梯读卡器',
  'resource.elevatorMasks.help.readerId': '电梯轿厢内的读卡器',
  'resource.elevatorMasks.field.readerName': '电梯读卡器',
  'resource.elevatorMasks.field.floors': '免刷卡楼层',
  'resource.elevatorMasks.help.floors': '楼层号和范围，例如 1-3, 5',
  'resource.elevatorMasks.field.scheduleId': '时段',
  'resource.elevatorMasks.help.scheduleId': '此时间表开放期间这些楼层无需刷卡',
  'resource.elevatorMasks.field.description': '描述',
  'resource.elevatorMasks.form.0.title': '电梯楼层屏蔽',
  'resource.elevatorMasks.form.0.description': '时间表开放期间这些楼层无需刷卡；其他楼层或时间表以外的任何楼层都需要刷卡。',
} satisfies Record<string, string>;
