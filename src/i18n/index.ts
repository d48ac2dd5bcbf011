// Tiny message tables: English by default, zh-CN as the original product's language (§9 time-ago labels).
import { useSyncExternalStore } from 'react';
import { formatTimeAgo, timeAgo, type DisplayLocale } from '../../contract';

export type Locale = DisplayLocale;

const en = {
  signIn: 'Sign in',
  signOut: 'Sign out',
  profile: 'Profile',
  settings: 'Settings',
  username: 'Username',
  password: 'Password',
  forgotPassword: 'Forgot password?',
  closeOthers: 'Close others',
  closeAll: 'Close all',
  close: 'Close',
  version: 'Version',
  search: 'Search…',
  refresh: 'Refresh',
  add: 'Add',
  edit: 'Edit',
  deleteSelected: 'Delete selected',
  exportCsv: 'Export CSV',
  save: 'Save',
  cancel: 'Cancel',
  reset: 'Reset',
  loading: 'Loading…',
  noRows: 'Nothing here yet',
  laterRelease: 'This screen arrives in a later release',
  notFound: 'Page Not Found',
  accessDenied: 'Access denied',
  selectClient: 'Select',
  recentChanges: 'Recent changes',
  // settings drawer
  themeColour: 'Theme colour',
  tagsView: 'Tags view (open tabs)',
  fixedHeader: 'Fixed header',
  sidebarLogo: 'Sidebar logo',
  density: 'Density',
  densityCompact: 'Compact',
  densityDefault: 'Default',
  densityLarge: 'Large',
  language: 'Language',
  restartTour: 'Restart tour',
  userMenu: 'User menu',
  alarms: 'Alarms',
  // profile
  signedInAs: 'Signed in as {name}',
  noRoles: 'No roles',
  name: 'Name',
  timeZone: 'Time zone',
  timeZoneHelp: 'Every screen shows times in this zone (now {zone}).',
  timeZoneClient: 'Not set: the client’s ({zone})',
  timeZoneBrowser: 'Not set: this browser’s ({zone})',
  avatarColour: 'Avatar colour',
  saveProfile: 'Save profile',
  changePassword: 'Change password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  repeatNewPassword: 'Repeat the new password',
  passwordChanged: 'Your password has been changed.',
  // time columns: '{zone}' is the zone's short name, e.g. GMT+8
  timeColumn: 'Time ({zone})',
  whenColumn: 'When ({zone})',
  startedColumn: 'Started ({zone})',
  fromColumn: 'From ({zone})',
  toColumn: 'To ({zone})',
};
export type MessageKey = keyof typeof en;

const zh: Record<MessageKey, string> = {
  signIn: '登录',
  signOut: '退出登录',
  profile: '个人资料',
  settings: '设置',
  username: '用户名',
  password: '密码',
  forgotPassword: '忘记密码？',
  closeOthers: '关闭其他',
  closeAll: '关闭所有',
  close: '关闭',
  version: '版本',
  search: '搜索…',
  refresh: '刷新',
  add: '新增',
  edit: '编辑',
  deleteSelected: '删除所选',
  exportCsv: '导出 CSV',
  save: '保存',
  cancel: '取消',
  reset: '重置',
  loading: '加载中…',
  noRows: '暂无数据',
  laterRelease: '此页面将在后续版本中提供',
  notFound: '页面不存在',
  accessDenied: '无权访问',
  selectClient: '选择',
  recentChanges: '最近变更',
  themeColour: '主题颜色',
  tagsView: '标签页视图（打开的页签）',
  fixedHeader: '固定页头',
  sidebarLogo: '侧边栏标志',
  density: '密度',
  densityCompact: '紧凑',
  densityDefault: '默认',
  densityLarge: '宽松',
  language: '语言',
  restartTour: '重新开始导览',
  userMenu: '用户菜单',
  alarms: '报警',
  signedInAs: '当前登录：{name}',
  noRoles: '无角色',
  name: '姓名',
  timeZone: '时区',
  timeZoneHelp: '所有页面均按此时区显示时间（当前 {zone}）。',
  timeZoneClient: '未设置：使用客户的时区（{zone}）',
  timeZoneBrowser: '未设置：使用本浏览器的时区（{zone}）',
  avatarColour: '头像颜色',
  saveProfile: '保存资料',
  changePassword: '修改密码',
  currentPassword: '当前密码',
  newPassword: '新密码',
  repeatNewPassword: '再次输入新密码',
  passwordChanged: '密码已修改。',
  timeColumn: '时间（{zone}）',
  whenColumn: '时间（{zone}）',
  startedColumn: '开始时间（{zone}）',
  fromColumn: '开始（{zone}）',
  toColumn: '结束（{zone}）',
};

export const MESSAGES: Record<Locale, Record<MessageKey, string>> = { en, 'zh-CN': zh };

let locale: Locale = 'en';
const listeners = new Set<() => void>();
export function setLocale(next: Locale): void {
  locale = next;
  listeners.forEach((l) => l());
}
export const getLocale = () => locale;

/** A message in the language; `{name}` placeholders are filled from `vars`. */
export function t(key: MessageKey, loc: Locale = locale, vars?: Record<string, string>): string {
  const text = MESSAGES[loc][key] ?? MESSAGES.en[key];
  return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m) : text;
}

/**
 * §9 time-ago label in the current language; older than two days it is the date-time in `timeZone` (views pass the
 * user's, see src/ui/time.ts). `now` is passed in so callers and tests control time.
 */
export function timeAgoLabel(time: number | Date | string, now: number, loc: Locale = locale, timeZone = 'UTC'): string {
  const at = typeof time === 'string' ? new Date(time) : time;
  return formatTimeAgo(timeAgo(at, now), loc, timeZone);
}

export function useLocale(): Locale {
  return useSyncExternalStore((l) => { listeners.add(l); return () => listeners.delete(l); }, getLocale, getLocale);
}
export function useT(): (key: MessageKey, vars?: Record<string, string>) => string {
  const loc = useLocale();
  return (key, vars) => t(key, loc, vars);
}
