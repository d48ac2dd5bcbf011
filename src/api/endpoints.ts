// Typed calls for every path of contract/api.ts. Every response is validated with its contract schema: an
// invalid answer is an error, never half-applied.
import { array, integer, nullable, optional, string, type, unknown, type Infer, type Struct } from 'superstruct';
import {
  API,
  Client,
  DashboardSummary,
  LoginResponse,
  MeResponse,
  Page,
  Settings,
  User,
  AcknowledgeUpdate,
  AlarmAction,
  DoorView,
  Event,
  buildSort,
  validate,
  type LoginRequest,
  type PageOf,
  type SortSpec,
  type UiErrorReport,
} from '../../contract';
import { api } from './client';
import { IamExchangeResponse, IamProviders } from '../../contract/iam';
import { SignInAnswer } from '../../contract/mfa';
import { ApiError } from './errors';
import { HANDOVER_API, HandoverAcknowledged, HandoverDigest, type AcknowledgeHandoverBody } from '../../contract/handover';
import { ForwardTargets, ForwardedAnswer, ShelvedAnswer } from '../../contract/alarmManagement';

export interface ListParams {
  page?: number;
  size?: number;
  sort?: SortSpec[];
  filters?: Record<string, string>;
}

/** Server list conventions: page, size, sort=field,asc|desc joined by commas, filters (q, …) as query params. */
export function listQuery(p: ListParams = {}): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (p.page !== undefined) out.page = p.page;
  if (p.size !== undefined) out.size = p.size;
  const sort = buildSort(p.sort ?? []);
  if (sort) out.sort = sort;
  for (const [k, v] of Object.entries(p.filters ?? {})) if (v !== '' && !(k in out)) out[k] = v;
  return out;
}

/** Validate a response body; a mismatch becomes an ApiError naming the first bad field. */
export function checked<T>(data: unknown, schema: Struct<T, any>, path: string): T {
  const r = validate(data, schema);
  if (r.ok) return r.value;
  const v = r.violations[0];
  throw new ApiError({ status: 502, message: `Invalid response from ${path}: ${v ? `${v.field} ${v.message}` : 'unexpected shape'}`, path, body: data });
}

export const bearer = (token?: string) => (token ? { headers: { Authorization: `Bearer ${token}` } } : {});

export async function getJson<T>(
  path: string,
  schema: Struct<T, any>,
  params?: Record<string, string | number>,
  token?: string,
  signal?: AbortSignal,
): Promise<T> {
  const r = await api.get(path, { params, ...bearer(token), ...(signal ? { signal } : {}) });
  return checked(r.data, schema, path);
}
export async function send<T>(method: 'post' | 'put', path: string, body: unknown, schema: Struct<T, any>): Promise<T> {
  const r = await api[method](path, body);
  return checked(r.data, schema, path);
}

export const Anything = unknown();
export const UiErrorEntry = type({ id: integer(), message: string(), url: string(), at: optional(string()) });
export type UiErrorEntry = Infer<typeof UiErrorEntry>;

const ClientPage = Page(Client);
// ---------- identity provider ----------
// issue 49: a session, or the second step it needs (contract/mfa.ts)
export const login = (body: LoginRequest) => send('post', API.login, body, SignInAnswer);
export const me = (token?: string) => getJson(API.me, MeResponse, undefined, token);
/** Answers like a sign-in: the new token, user and grants for the chosen client. */
export const selectClient = (clientId: number | null) => send('put', API.meClient, { clientId }, LoginResponse);
export const updateSettings = (settings: Settings) => send('put', API.meSettings, settings, Settings);
export const updateProfile = (body: { name?: string; avatarColor?: string; timezone?: string | null }) => send('put', API.meProfile, body, User);
/**
 * Best-effort: the token is passed explicitly because storage is being cleared at the same time. A session an identity
 * provider signed in answers where the browser ends the provider's session too (issue 49), or null.
 */
export const logout = async (token: string | null): Promise<string | null> => {
  const r = await api.post(API.logout, {}, bearer(token ?? undefined));
  const url = (r.data as { providerLogoutUrl?: unknown } | undefined)?.providerLogoutUrl;
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
};
// issue 49: the identity providers the sign-in page offers, and a provider's sign-in ticket exchanged for the session
export const iamProviders = (client?: string | null) =>
  getJson(client ? `${API.iamProviders}?client=${encodeURIComponent(client)}` : API.iamProviders, IamProviders);
export const iamExchange = (ticket: string) => send('post', API.iamExchange, { ticket }, IamExchangeResponse);
export const resetInit = (body: { username: string }) => send('post', API.resetInit, body, Anything);
export const resetFinish = (body: { token: string; newPassword: string }) => send('post', API.resetFinish, body, Anything);
export const registration = (body: { username: string; name: string; email: string; clientCode?: string }) => send('post', API.registration, body, Anything);
export const changePassword = (body: { username: string; oldPassword: string; newPassword: string }) => send('post', API.changePassword, body, Anything);

// ---------- clients, divisions ----------
export const listClients = (p?: ListParams): Promise<PageOf<Client>> => getJson(API.clients, ClientPage, listQuery(p));
/** A picker's choices of a catalogue resource (`<api>/options`): by search text, or the labels of given ids. */
// detail: what tells two rows of one title apart (issue 29), shown by a picker when titles collide
const OptionPage = type({ items: array(type({ id: integer(), label: string(), detail: optional(nullable(string())) })) });
export type PickOption = { id: number; label: string; detail?: string | null };
export const optionsOf = (api: string, p: { q?: string; ids?: readonly number[] }, signal?: AbortSignal): Promise<{ items: PickOption[] }> =>
  getJson(`${api}/options`, OptionPage, p.ids ? { ids: p.ids.join(',') } : { q: p.q ?? '' }, undefined, signal);
// ---------- dashboard, audit, UI errors ----------
export const dashboard = () => getJson(API.dashboard, DashboardSummary);
export const postUiError = (body: UiErrorReport) => send('post', API.uiErrors, body, Anything);
const DoorPage = Page(DoorView);
/** Open alarms, most urgent first (the server sorts by priority, then time). */
const EventList = array(Event);
export const openAlarms = () => getJson(API.alarms, EventList);
export const acknowledgeAlarm = (id: Event['id']) => send('post', `${API.alarms}/${id}/acknowledge`, {}, AcknowledgeUpdate);
export const processAlarm = (id: Event['id'], note: string) => send('post', `${API.alarms}/${id}/process`, { note }, AlarmAction);
// issue 50: alarm management (server/alarms/routes.ts)
export const forwardAlarm = (r: { id: Event['id']; userId?: number | null; groupId?: number | null; note: string }) =>
  send('post', `${API.alarms}/${r.id}/forward`, { userId: r.userId ?? null, groupId: r.groupId ?? null, note: r.note }, ForwardedAnswer);
export const shelveSource = (r: { pointId: string; minutes: number; reason: string }) => send('post', `${API.alarms}/shelve`, r, ShelvedAnswer);
export const forwardTargets = () => getJson(`${API.alarms}/forward-targets`, ForwardTargets);
export const listDoors = (): Promise<PageOf<DoorView>> => getJson(API.doors, DoorPage);
// ---------- issue 31: the shift handover [0.2.6.0, 0.2.6.1] ----------
/** The digest of the shift that ended last (null: no shift has ended yet). */
export const getLatestHandover = () => getJson(`${HANDOVER_API}/latest`, HandoverDigest);
/** Acknowledge the shift ending at `end`, with an optional note for the next shift. */
export const acknowledgeHandover = (b: AcknowledgeHandoverBody) => send('post', `${HANDOVER_API}/acknowledge`, b, HandoverAcknowledged);
