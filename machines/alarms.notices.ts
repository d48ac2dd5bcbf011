// The alarm notices the operator is told of (issue 10), the pure rules of the alarms machine's board (./alarms.ts):
// one toast per new alarm while the board has room, one summary beyond it, and what leaves the board once seen to.
import { MAX_ALARM_NOTICES, compareAlarms, sameId, type Event } from '../contract';

/** One toast of the alarm board: a single alarm, or a summary of many. */
export interface AlarmNotice {
  id: number;
  kind: 'alarm' | 'summary';
  alarmIds: Event['id'][];
  /** The most urgent priority among its alarms. */
  priority: number;
  /** What it says, in English (the view says it in the operator's language from the fields below: src/app/alarmNoticeWords.ts). */
  title: string;
  message: string;
  /** The place of its most urgent alarm, how many alarms it holds and how many of them are P1. */
  point: string;
  count: number;
  p1: number;
  /** Its most urgent alarm's message, with the key and values it was said with (issue 48). */
  top: Pick<Event, 'message' | 'messageCode' | 'messageValues'>;
  /** A P1 stays up until seen: dismissed, opened, or acknowledged by someone; the others go after 5 s (§9). */
  sticky: boolean;
  /** Bumped on every change; an expiry only removes the version it was scheduled for. */
  version: number;
}
export interface NoticeBoard {
  notices: AlarmNotice[];
  seq: number;
}

// ---------- what the operator is told (issue 10) ----------

const P1 = 1;
const pointOf = (a: Event) => a.eventPointName ?? a.eventSourceName ?? String(a.eventPointId ?? a.eventSourceId);
/** Still news: open and nobody has acknowledged it. */
export const unseen = (open: readonly Event[], id: Event['id']) => open.find((a) => sameId(a.id, id) && !a.acknowledge);
/** Raised at or after `since` (epoch ms); an alarm without a readable time is not counted as news. */
export const raisedSince = (a: Event, since: number) => {
  const t = Date.parse(a.time);
  return Number.isFinite(t) && t >= since;
};
const byUrgency = (a: AlarmNotice, b: AlarmNotice) => a.priority - b.priority || b.id - a.id;

/** The notice of one alarm, or the summary of several ("12 new alarms, 3 P1"). */
export function noticeFor(alarms: readonly Event[], kind: AlarmNotice['kind'], id: number, version: number): AlarmNotice {
  const sorted = [...alarms].sort(compareAlarms);
  const top = sorted[0];
  const p1 = sorted.filter((a) => a.priority <= P1).length;
  const said = { point: pointOf(top), count: sorted.length, p1, top: { message: top.message, messageCode: top.messageCode, messageValues: top.messageValues } };
  if (kind === 'alarm') {
    return {
      id,
      kind,
      alarmIds: [top.id],
      priority: top.priority,
      title: `P${top.priority} alarm: ${pointOf(top)}`,
      message: top.message,
      ...said,
      sticky: p1 > 0,
      version,
    };
  }
  const n = sorted.length;
  return {
    id,
    kind,
    alarmIds: sorted.map((a) => a.id),
    priority: top.priority,
    title: `${n} new alarm${n === 1 ? '' : 's'}${p1 ? `, ${p1} P1` : ''}`,
    message: `Most urgent: P${top.priority} ${pointOf(top)}${top.message ? ` (${top.message})` : ''}`,
    ...said,
    sticky: p1 > 0,
    version,
  };
}

/**
 * A gathered batch joins the board: one notice each, most urgent first, while the board stays within
 * MAX_ALARM_NOTICES; beyond that (or once a summary is up) everything on it becomes one summary.
 * `changed` are the notices that went up or grew.
 */
export function addToBoard(board: NoticeBoard, batch: readonly Event[], open: readonly Event[]): { board: NoticeBoard; changed: AlarmNotice[] } {
  const fresh = batch.filter((a) => unseen(open, a.id));
  if (!fresh.length) return { board, changed: [] };
  let seq = board.seq;
  const summary = board.notices.find((n) => n.kind === 'summary');
  if (summary || board.notices.length + fresh.length > MAX_ALARM_NOTICES) {
    const all: Event[] = [];
    for (const id of board.notices.flatMap((n) => n.alarmIds)) {
      const a = unseen(open, id);
      if (a && !all.some((x) => sameId(x.id, a.id))) all.push(a);
    }
    for (const a of fresh) if (!all.some((x) => sameId(x.id, a.id))) all.push(a);
    const id = summary?.id ?? ++seq;
    const s = noticeFor(all, 'summary', id, ++seq);
    return { board: { notices: [s], seq }, changed: [s] };
  }
  const added = [...fresh].sort(compareAlarms).map((a) => {
    const id = ++seq;
    return noticeFor([a], 'alarm', id, id);
  });
  return { board: { notices: [...board.notices, ...added].sort(byUrgency), seq }, changed: added };
}

/** Alarms acknowledged, processed or cleared leave their notices; a notice left with none goes. */
export function pruneBoard(board: NoticeBoard, open: readonly Event[]): { board: NoticeBoard; changed: AlarmNotice[] } {
  let seq = board.seq;
  let dirty = false;
  const notices: AlarmNotice[] = [];
  const changed: AlarmNotice[] = [];
  for (const n of board.notices) {
    const still = n.alarmIds.map((id) => unseen(open, id)).filter((a): a is Event => !!a);
    if (still.length === n.alarmIds.length) {
      notices.push(n);
      continue;
    }
    dirty = true;
    if (!still.length) continue;
    const r = noticeFor(still, n.kind, n.id, ++seq);
    notices.push(r);
    changed.push(r);
  }
  return dirty ? { board: { notices: notices.sort(byUrgency), seq }, changed } : { board, changed };
}
