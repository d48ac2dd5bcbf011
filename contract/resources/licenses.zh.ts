// zh-CN labels of the resources declared in ./licenses.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.licenses.one': '许可证',
  'resource.licenses.many': '许可证',
  'resource.licenses.field.licenseKey': '许可证密钥',
  'resource.licenses.field.licensee': '被许可方',
  'resource.licenses.field.modules': '模块',
  'resource.licenses.field.identitySeats': '人员授权数',
  'resource.licenses.field.identitiesUsed': '已用人员数',
  'resource.licenses.field.doorSeats': '门授权数',
  'resource.licenses.field.doorsUsed': '已用门数',
  'resource.licenses.field.readerSeats': '读卡器授权数',
  'resource.licenses.field.readersUsed': '已用读卡器数',
  'resource.licenses.field.operatorSeats': '操作员授权数',
  'resource.licenses.field.operatorsUsed': '已用操作员数',
  'resource.licenses.field.validTo': '有效期至',
  'resource.licenses.form.0.title': '许可证密钥',
  'resource.licenses.form.0.description': '粘贴您获得的密钥；在替换当前密钥之前会校验其签名。',
} satisfies Record<string, string>;
