// The recorded sessions of the replay screen (issue 4): the client's uploaded journals for auditors holding
// 0.8.2.0, listed and opened over REST (each read is audited on the server). Responses are validated.
import { API, RecordingPage, type RecordingSummary } from '../../contract';
import { api } from '../api/client';
import { checked, listQuery } from '../api/endpoints';

export async function listRecordings(page = 0, size = 50): Promise<{ items: RecordingSummary[]; total: number }> {
  const r = await api.get(API.sessionJournals, { params: listQuery({ page, size, sort: [{ field: 'updatedAt', dir: 'desc' }] }) });
  const body = checked(r.data, RecordingPage, API.sessionJournals);
  return { items: body.items, total: body.total };
}

/** The recording as NDJSON text, for the replay viewer (which validates it line by line like any loaded file). */
export async function openRecording(id: number): Promise<string> {
  const r = await api.get(`${API.sessionJournals}/${id}`, { responseType: 'text', transformResponse: (x) => x });
  return String(r.data);
}
