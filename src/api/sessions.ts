// Calls of the Monitor sessions screens (issue 4), as actors for the list and end-session machines. Every answer
// is validated with its contract schema.
import { fromPromise } from 'xstate';
import { API, EndSessionsResult, Page, SessionSummary, type PageOf, type SessionKind } from '../../contract';
import type { ListQueryInput } from '../../machines/resourceList';
import { api } from './client';
import { checked, listQuery, type ListParams } from './endpoints';

const PATHS: Record<SessionKind, string> = { operator: API.operatorSessions, service: API.serviceAccountSessions };
const SessionPage = Page(SessionSummary);

export async function listSessions(kind: SessionKind, p: ListParams): Promise<PageOf<SessionSummary>> {
  const path = PATHS[kind];
  const r = await api.get(path, { params: listQuery(p) });
  return checked(r.data, SessionPage, path);
}
export async function endSessions(kind: SessionKind, ids: number[]): Promise<EndSessionsResult> {
  const path = `${PATHS[kind]}/end`;
  const r = await api.post(path, { ids });
  return checked(r.data, EndSessionsResult, path);
}

export const sessionActors = (kind: SessionKind) => ({
  fetchPage: fromPromise<PageOf<unknown>, ListQueryInput>(({ input }) => listSessions(kind, { page: input.page, size: input.size, sort: input.sort, filters: input.filters })),
  endSessions: fromPromise<EndSessionsResult, { ids: number[] }>(({ input }) => endSessions(kind, input.ids)),
});
