// The operator note of the Process alarm dialog: its counter toward the limit and its field error, both from the
// contract's ProcessAlarmBody (the rule the server applies), so the form refuses what the server would refuse and
// never cuts the text.
import { ALARM_NOTE_MAX, ProcessAlarmBody, validate } from '../../../contract';

export interface AlarmNoteState {
  /** "412 / 1,000" in the reader's number format */
  counter: string;
  /** the contract's sentence for the note (English; the view translates it), or undefined when it may be sent */
  problem: string | undefined;
  /** longer than the limit: shown as an error at once (a blank note only disables Process) */
  over: boolean;
}

export function alarmNoteState(note: string, locale: string): AlarmNoteState {
  const n = new Intl.NumberFormat(locale);
  const checked = validate({ note }, ProcessAlarmBody);
  const problem = checked.ok ? undefined : (checked.violations.find((v) => v.field === 'note')?.message ?? checked.violations[0]?.message);
  return { counter: `${n.format(note.length)} / ${n.format(ALARM_NOTE_MAX)}`, problem, over: note.length > ALARM_NOTE_MAX };
}
