// The alarms machine's context (machines/alarms.ts), apart so that its invariants (alarms.invariants.ts) read it without
// importing the machine that imports them.
import type { Sentence } from '../contract/messages';
import type { Event } from '../contract';
import type { ForwardTargets, Raising } from './alarms.management';
import type { NoticeBoard } from './alarms.notices';
import type { AlarmFact } from './socket';

export interface AlarmsContext {
  /** Open alerts in arrival order (the selectors sort them). */
  alarms: Event[];
  /** The server's open count from /alarmcount, when heard. */
  serverCount: number | null;
  /** Facts heard while the REST snapshot was in flight, re-applied on top of it. */
  pending: AlarmFact[];
  error: string | Sentence | null;
  /** False until the first open list of this sign-in arrived: what was open before the console connected is not news. */
  baselined: boolean;
  /** Epoch ms when this sign-in (or restored session, or client) began: alarms raised since are news in the first list. */
  openedAt: number | null;
  /** New alarms waiting out the gather window, to be noticed together. */
  gathered: Event[];
  board: NoticeBoard;
  /** Issue 50: the recent raisings on this console (flood and chatter are read from them). */
  raisings: readonly Raising[];
  /** Issue 50: whom an alarm may be forwarded to, once read. */
  targets: ForwardTargets | null;
}
