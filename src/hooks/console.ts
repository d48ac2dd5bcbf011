// What a view may ask of the console beyond its own actors, through the hooks room (views never import src/system):
// a notice for the toasts, and this console's journal as NDJSON (the replay screen's export). All of it is the
// wiring the shell gave the hooks (./wiring.ts).
import { wiring, type ConsoleWiring } from './wiring';

type W = ConsoleWiring;
/** A notice for the toasts. */
export const notify: W['notify'] = (notice) => wiring().notify(notice);
/** The toasts' stream of notices. */
export const notices$: W['notices$'] = {
  subscribe: (listener) => wiring().notices$.subscribe(listener),
};
/** The alarm sound's state and its switch (the header's sound control): the wiring's, member by member when used. */
export const alarmSound: W['alarmSound'] = new Proxy({} as W['alarmSound'], { get: (_t, key) => wiring().alarmSound[key as keyof W['alarmSound']] });
export type SoundState = ReturnType<W['alarmSound']['state']>;
/** A render that broke, sent to the UI error log (§8). */
export const reportUiError: W['reportUiError'] = (...args) => wiring().reportUiError(...args);
/** This console's journal so far, one event a line. */
export const journalNdjson = (): string => wiring().journalNdjson();
/** Settles once the console's opening screen has what it reads first (issue 48): what a screen does not need to be
 *  usable (the dashboard's charts) loads after it, so it never delays the opening screen. */
export const openingScreenRead = (): Promise<void> => wiring().openingScreenRead;
