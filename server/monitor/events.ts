// An event as the pipeline takes it in (EventInput), as it is stored and read back (eventOfRow), and who hears it
// published (server/monitor/pipeline.ts).
import { EVENT_CODES, defaultInstructionsCode, eventLabel, fill, type Event, type Sentence, type SentenceValues } from '../../contract';
import { iso } from '../db/values';

/** Who hears a publish beyond the tenant: only these users, only sessions that may see this division (null: any). */
export interface PublishTo {
  users?: readonly number[];
  division?: number | null;
  /** a count per division (`/alarmcount`): a session limited to some divisions hears `{ count }` of those and none */
  counts?: { byDivision: Record<number, number>; none: number };
}
export type Publish = (clientId: number, destination: string, body: unknown, to?: PublishTo) => void;

export interface EventInput {
  eventCode: number;
  sourceId: string;
  sourceName: string | null;
  pointId?: string;
  pointName?: string | null;
  message: string;
  /** issue 48: the message as a sentence (fill): its key and values, which the console says in the operator's language */
  messageCode?: string;
  messageValues?: SentenceValues;
  /** the controller a device message came from (its division is the event's) */
  controllerId?: number;
  /** a decided swipe: who, granted or denied and why, and what was presented (the Why? drawer decides it again) */
  decided?: { identityId: number | null; decision: 'granted' | 'denied'; reason: string; swipe: unknown };
  /** Gatehouse Edge (issue 47): the controller journal's sequence number of this event, noted as stored in the same
   *  transaction as the event itself (a batch stored is never stored again when resent after a crash); `from` (on a
   *  batch's first): the first number the batch used, stored only right after the last one stored; `upTo` (on its
   *  last): the last number it used (events refused for what they said use theirs) */
  /** an edge's journal number; `ahead`: stored ahead of its controller's last number (the live lane, issue 47) */
  edgeSeq?: { controllerId: number; seq: number; from?: number; upTo?: number; ahead?: true };
  /** Gatehouse Edge (issue 47): an alert raised and returned to normal while its controller was offline (when it
   *  returned): its alarm is recorded as processed, never raised as new on the consoles */
  clearedOffline?: { at: string };
  /** Gatehouse Edge (issue 47): where a granted swipe let the person go (anti-passback) and when it happened, written
   *  in the event's own transaction (a person's newest move of the transaction wins; one older than stored changes
   *  nothing): never an event stored without it */
  presence?: { identityId: number; zoneId: number | null; at: number };
  /** Gatehouse Edge (issue 47): the door status an edge's door event means and when it happened at the door, written in
   *  the event's own transaction (the newest the door has heard wins) and said live after the commit */
  doorStatus?: { doorId: number; status: string; at: number };
}

export const EVENT_COLS = `e.id, e.client_id, e.event_code, e.event_source_id, e.event_source_name, e.event_point_id, e.event_point_name,
  e.message, e.message_code, e.message_values, e.alert, e.priority, e.at, a.state as alarm_state, a.instructions`;

/** An event's message made with fill(): its English, key and values, for an EventInput (`{ eventCode, …said(fill(…)) }`). */
type Said = Pick<EventInput, 'message' | 'messageCode' | 'messageValues'>;
export const said = (s: Sentence): Said => ({
  message: s.message,
  messageCode: s.code,
  messageValues: s.values,
});

/** An event at a source (an input, an output, a controller) said with its key (issue 48): "Input active: Vault PIR". */
export const atSource = (code: number, source: string): Said => said(fill('event.atSource', '{event}: {source}', { event: eventLabel(code), source }));
/** An event said by its label alone (a device's event sent without a message), with its key (issue 48). */
export const labelled = (code: number): Said => said(fill('event.label', '{event}', { event: eventLabel(code) }));
/** An input active in an armed alarm zone, said with its key (issue 48). */
export const intrusion = (input: string, zone: string): Said =>
  said(fill('event.intrusion', '{event}: {input} (alarm zone {zone})', { event: eventLabel(EVENT_CODES.intrusion), input, zone }));

/** Issue 48: the key of built-in instructions (the server's own words), for the console to say them in its language. */
export function instructionsKey(eventCode: number, instructions: string | null | undefined): { instructionsCode?: string } {
  const code = defaultInstructionsCode(eventCode, instructions);
  return code ? { instructionsCode: code } : {};
}

export function eventOfRow(r: any): Event {
  return {
    id: Number(r.id),
    eventCode: r.event_code,
    eventSourceId: r.event_source_id,
    eventSourceName: r.event_source_name ?? null,
    eventPointId: r.event_point_id,
    eventPointName: r.event_point_name ?? null,
    message: r.message,
    // issue 48: stored with its key since migration 194 (an older event keeps its English alone)
    ...(r.message_code
      ? { messageCode: r.message_code, messageValues: typeof r.message_values === 'string' ? JSON.parse(r.message_values) : (r.message_values ?? {}) }
      : {}),
    alert: r.alert,
    acknowledge: r.alarm_state === 'acknowledged' || r.alarm_state === 'processed',
    process: r.alarm_state === 'processed',
    eventPoint: [{ id: r.event_point_id, name: r.event_point_name ?? null }],
    time: iso(r.at)!,
    priority: r.priority,
    instructions: r.instructions ?? null,
    ...instructionsKey(r.event_code, r.instructions),
  };
}
