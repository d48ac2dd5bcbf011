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
};
