// Toasts the shell shows (Blueprint OverlayToaster): machines and the api push here through injected actions.
import { Subject } from 'rxjs';
import type { Notice } from '../api/errors';

export type { Notice, Intent } from '../api/errors';
export const notices$ = new Subject<Notice>();
export function notify(notice: Notice): void {
  notices$.next(notice);
}
