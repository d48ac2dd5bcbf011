// The operator note of the Process alarm dialog: its counter toward the limit and its field error, both from the
// contract's ProcessAlarmBody (the rule the server applies), so the form refuses what the server would refuse and
// never cuts the text.
import { ALARM_NOTE_MAX, ProcessAlarmBody, validate, type Violation } from '../../../contract';

export interface AlarmNoteState {
  /** "412 / 1,000" in the reader's number format */
  counter: string;
  /** the contract's violation of the note (English, with its key and values when said with them: the view says it by
   *  its key), or undefined when it may be sent */
  problem: Violation | undefined;
  /** longer than the limit: shown as an error at once (a blank note only disables Process) */
  over: boolean;
}

export function alarmNoteState(note: string, locale: string): AlarmNoteState {
  const n = new Intl.NumberFormat(locale);
  const checked = validate({ note }, ProcessAlarmBody);
  const problem = checked.ok ? undefined : (checked.violations.find((v) => v.field === 'note') ?? checked.violations[0]);
  return { counter: `${n.format(note.length)} / ${n.format(ALARM_NOTE_MAX)}`, problem, over: note.length > ALARM_NOTE_MAX };
}
