// The Monitor sessions screens' actors (issue 4): a page of sessions (the sessions lists, ./resourceLogic.ts), ending
// some (the named `operatorSessionEnd` and `serviceSessionEnd`, ./logic.ts).
import { provided } from '../../machines/defined';
import { fromPromise } from 'xstate';
import type { EndSessionsResult, PageOf, SessionKind } from '../../contract';
import { sessionEndMachine } from '../../machines/sessionEnd';
import type { ListQueryInput } from '../../machines/resourceList';
import { endSessions, listSessions } from '../api/sessions';

export const sessionActors = (kind: SessionKind) => ({
  fetchPage: fromPromise<PageOf<unknown>, ListQueryInput>(({ input }) =>
    listSessions(kind, { page: input.page, size: input.size, sort: input.sort, filters: input.filters }),
  ),
  endSessions: fromPromise<EndSessionsResult, { ids: number[] }>(({ input }) => endSessions(kind, input.ids)),
});
/** A session list's end-sessions actor. */
export const sessionEnd = (kind: SessionKind) => provided(sessionEndMachine, { actors: { endSessions: sessionActors(kind).endSessions } });
