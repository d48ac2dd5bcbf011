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
};

export const MESSAGES: Record<Locale, Record<MessageKey, string>> = { en, 'zh-CN': zh };

let locale: Locale = 'en';
const listeners = new Set<() => void>();
export function setLocale(next: Locale): void {
  locale = next;
  listeners.forEach((l) => l());
}
export const getLocale = () => locale;

export function t(key: MessageKey, loc: Locale = locale): string {
  return MESSAGES[loc][key] ?? MESSAGES.en[key];
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
export function useT(): (key: MessageKey) => string {
  const loc = useLocale();
  return (key) => t(key, loc);
}
