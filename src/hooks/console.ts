// What a view may ask of the console beyond its own actors, through the hooks room (views never import src/system):
// a notice for the toasts, and this console's journal as NDJSON (the replay screen's export).
import { getJournal } from '../system/browser';

export { notify, notices$ } from '../system/notices';
/** The alarm sound's state and its switch (the header's sound control). */
export { alarmSound, type SoundState } from '../system/alarmNotices';
/** A render that broke, sent to the UI error log (§8). */
export { reportUiError } from '../system/browser';

/** This console's journal so far, one event a line. */
export const journalNdjson = (): string => getJournal().toNdjson();
