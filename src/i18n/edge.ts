// Issue 47: the zh-CN words of the controllers list's Edge column (src/resources/controllers.ts edgeCell), spread into
// ./text.ts.
export const zhEdgeText: Record<string, string> = {
  'online since {at}': '自 {at} 起在线',
  online: '在线',
  'offline since {at}': '自 {at} 起离线',
  'offline, never connected': '离线，从未连接',
  'snapshot v{version}': '快照 v{version}',
  'snapshot v{version} (applied v{applied})': '快照 v{version}（已应用 v{applied}）',
  '{count} buffered': '缓存 {count} 条事件',
  'edge {version}': 'Edge 版本 {version}',
  Snapshot: '快照',
  'up to date': '最新',
  '{n} min old': '{n} 分钟前',
  '{n} h old': '{n} 小时前',
  '{n} d old': '{n} 天前',
  'past its {days} days': '已超过 {days} 天',
  'keep deciding': '继续判断',
  'facility code only': '仅凭设施码',
  locked: '上锁',
  '{policy} ({n} doors)': '{policy}（{n} 扇门）',
};
