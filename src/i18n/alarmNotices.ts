// The alarm board's notices and the alarm notifications in the operator's language (issue 48): the alarms machine
// (machines/alarms.notices.ts) and the server (`/notice/alarm`) give what to say as fields, the words are made here.
// In English they are exactly the machine's own `title` and `message`.
import type { Sentence } from '../../contract';
import { sayEvent, tx, type Locale } from './index';

type Said = { message: string; messageCode?: string; messageValues?: Sentence['values'] };

/** A notice of the alarm board: one alarm ("P1 alarm: Front door"), or a summary ("12 new alarms, 3 P1"). */
export interface NoticeFields {
  kind: 'alarm' | 'summary';
  priority: number;
  point: string;
  count: number;
  p1: number;
  top: Said;
}

/** The notice's title and message in `loc`. */
export function alarmNoticeWords(n: NoticeFields, loc?: Locale): { title: string; message: string } {
  const message = sayEvent(n.top, loc);
  if (n.kind === 'alarm') return { title: tx('P{p} alarm: {point}', { p: n.priority, point: n.point }, loc), message };
  const many = n.count === 1 ? tx('1 new alarm', undefined, loc) : tx('{n} new alarms', { n: n.count }, loc);
  return {
    title: n.p1 ? tx('{many}, {p1} P1', { many, p1: n.p1 }, loc) : many,
    message: n.top.message
      ? tx('Most urgent: P{p} {point} ({message})', { p: n.priority, point: n.point, message }, loc)
      : tx('Most urgent: P{p} {point}', { p: n.priority, point: n.point }, loc),
  };
}

/** An alarm notification's line: its name, the alarm's priority and message ("Loading bay · P1: Door forced open"). */
export function alarmNotificationWords(n: { name: string; priority: number } & Said, loc?: Locale): string {
  return tx('{name} · P{p}: {message}', { name: n.name, p: n.priority, message: sayEvent(n, loc) }, loc);
}
