// Calls of the Monitor sessions screens (issue 4); their actors are the system's (src/system/logic.ts). Every answer
// is validated with its contract schema.
import { API, EndSessionsResult, Page, SessionSummary, type PageOf, type SessionKind } from '../../contract';
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
