// zh-CN labels of the resources declared in ./floorPlans.ts, by the keys the console looks them up with (src/i18n/catalogue.ts).
export default {
  'resource.floorPlans.one': '平面图',
  'resource.floorPlans.many': '平面图',
  'resource.floorPlans.field.name': '名称',
  'resource.floorPlans.placeholder.name': '一楼',
  'resource.floorPlans.unique.name': '已被另一个平面图使用',
  'resource.floorPlans.field.description': '描述',
  'resource.floorPlans.field.image': '平面图图片',
  'resource.floorPlans.help.image': '楼层的 PNG、JPEG、WebP 或 GIF 图片，最大 1.4 MB',
  'resource.floorPlans.field.doors': '门',
  'resource.floorPlans.item.doors': '门',
  'resource.floorPlans.child.doors.field.doorId': '门',
  'resource.floorPlans.child.doors.field.x': '横向位置（‰）',
  'resource.floorPlans.child.doors.field.y': '纵向位置（‰）',
  'resource.floorPlans.form.0.title': '平面图',
  'resource.floorPlans.form.1.title': '平面图上的门',
  'resource.floorPlans.form.1.description': '点击平面图在该处标注一扇门，然后选择是哪扇门；先点击标注，再点击平面图即可移动它。',
} satisfies Record<string, string>;
