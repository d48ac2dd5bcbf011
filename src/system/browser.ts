// The browser's implementations of the machines' effects: localStorage/sessionStorage, Date.now, the REST calls,
// the toaster. getSystem() is the one started actor system the React app reads.
import { array, object, string } from 'superstruct';
import { fromPromise, waitFor, type AnyActorRef, type InspectionEvent } from 'xstate';
import {
  LOGIN_MODE,
  PRIV,
  StoredPrivileges,
  grantsTag,
  heldPrivilegeIds,
  SETTINGS_KEY,
  SETTINGS_KEY_PREFIX,
  STORAGE,
  validate,
  type AvatarColor,
  type LoginRequest,
  type PrivilegeEntry,
} from '../../contract';
import type { Authenticated, MeRead, RestoredToken, StoredSession } from '../../machines/session';
import type { VisitedView } from '../../machines/tabs';
import type { ProcessRequest } from '../../machines/alarms';
import type { ForwardRequest, ShelveRequest } from '../../machines/alarms.management';
import type { LookupInput, SearchInput } from '../../machines/options';
import { createJournal, type Journal } from '../../machines/journal.recorder';
import {
  createGatehouseSystem,
  gatehouseMachine,
  getSystemActor,
  type GatehouseImpl,
  type GatehouseSystem,
  type SystemActorId,
  type SystemActors,
} from '../../machines/system';
import { configureApi, endSessionReads } from '../api/client';
import * as endpoints from '../api/endpoints';
import { createErrorReporter } from '../api/errors';
import { createInspectorObserver } from './inspector';
import { notify } from './notices';
import { startWakeCheck } from './wake';
import { createCompanionTransport } from '../transport/companion';
import { createCardConnectorTransport } from '../transport/cardConnector';
import { createStompConnection, loadLiveLibrariesAfter } from '../transport/stomp';
import { followOpeningRead, openingScreenRead, openingScreenStarted } from './openingScreen';
import { startAlarmNotices } from './alarmNotices';
import { viewLogic } from './logic';
import { mfaSignInLogic, passkeySignInLogic } from './mfaLogic';

/** A render that broke, sent to the UI error log (§8): the error boundary's, through the hooks room. */
export { reportUiError } from '../api/uiErrors';
import { startAlarmNotifications } from './alarmNotifications';
import { applyReplayQuery, randomRecordingId, startJournalUploader, type JournalUploader } from './journalUpload';
import { selectCanNotify } from '../../machines/companion.selectors';
import { selectClientZone } from '../../machines/session.selectors';
import { setClientZone } from '../ui/time';

const clock = () => Date.now();
const StoredViews = array(object({ path: string(), title: string() }));

/** Visited views from sessionStorage, validated; anything else starts empty. */
export function readStoredViews(storage: Pick<Storage, 'getItem'> = sessionStorage): VisitedView[] {
  try {
    const r = validate(JSON.parse(storage.getItem(STORAGE.visitedViews) ?? '[]'), StoredViews);
    return r.ok ? r.value : [];
  } catch {
    return [];
  }
}

/** §3 storage layout of a signed-in session. */
export function writeSession(s: StoredSession, storage: Pick<Storage, 'setItem' | 'removeItem'> = localStorage): void {
  storage.setItem(STORAGE.jwt, s.token);
  storage.setItem(STORAGE.privileges, JSON.stringify({ priviledges: s.privileges satisfies PrivilegeEntry[] }));
  storage.setItem(STORAGE.roles, JSON.stringify(s.roles));
  storage.setItem(STORAGE.username, s.username);
  if (s.clientId === null) storage.removeItem(STORAGE.clientId);
  else storage.setItem(STORAGE.clientId, String(s.clientId));
  storage.setItem(STORAGE.user, JSON.stringify(s.user));
}

export function clearSession(storage: Pick<Storage, 'removeItem'> = localStorage, tabStorage: Pick<Storage, 'removeItem'> = sessionStorage): void {
  for (const key of [STORAGE.jwt, STORAGE.privileges, STORAGE.roles, STORAGE.username, STORAGE.clientId, STORAGE.user]) storage.removeItem(key);
  tabStorage.removeItem(STORAGE.visitedViews);
}

/**
 * The stored session cleared as a session of this tab ends (`own`: its token; null clears whatever is stored), unless
 * another tab stored a newer one that this tab has not followed yet (its storage event still on its way): that one is
 * the other tab's, and cleared here it would sign that tab out ("You signed out in another tab").
 */
export function clearOwnSession(
  own: string | null,
  storage: Pick<Storage, 'getItem' | 'removeItem'> = localStorage,
  tabStorage: Pick<Storage, 'removeItem'> = sessionStorage,
): void {
  const stored = storage.getItem(STORAGE.jwt);
  if (own !== null && stored !== null && stored !== own) tabStorage.removeItem(STORAGE.visitedViews);
  else clearSession(storage, tabStorage);
}

/** §9: persisted state is keyed by version; keys of older versions are cleared. */
export function persistSettingsLocally(settings: unknown, storage: Storage = localStorage): void {
  for (let i = storage.length - 1; i >= 0; i--) {
    const key = storage.key(i);
    if (key && key.startsWith(SETTINGS_KEY_PREFIX) && key !== SETTINGS_KEY) storage.removeItem(key);
  }
  storage.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

/** The privilege ids of the stored grant list (§3 `privileges` key), or none when it is missing or garbled. */
export function storedPrivileges(storage: Pick<Storage, 'getItem'> = localStorage): Set<string> {
  try {
    const r = validate(JSON.parse(storage.getItem(STORAGE.privileges) ?? 'null'), StoredPrivileges);
    return r.ok ? heldPrivilegeIds(r.value.priviledges) : new Set();
  } catch {
    return new Set();
  }
}

/** Issue 49: the ticket of an identity provider's sign-in in the address (`#iam=…`), removed from it (once, and from the history). */
function takeIamTicket(): string | null {
  const m = /^#iam=([A-Za-z0-9_-]{20,100})$/.exec(window.location.hash);
  if (!window.location.hash.startsWith('#iam=')) return null;
  history.replaceState(history.state, '', window.location.pathname + window.location.search);
  return m ? m[1] : null;
}

export function browserImpl(): GatehouseImpl {
  return {
    session: {
      input: { loginMode: LOGIN_MODE },
      actors: {
        // issue 49: a page back from an identity provider's sign-in carries its ticket (`#iam=…`), taken off the address at once
        restoreSession: fromPromise<RestoredToken>(async () => ({ token: localStorage.getItem(STORAGE.jwt), now: clock(), iamTicket: takeIamTicket() })),
        fetchMe: fromPromise<MeRead, { token: string }>(async ({ input }) => ({ ...(await endpoints.me(input.token)), now: clock() })),
        // issue 49: a session, or the challenge of its second step (the session machine tells them apart)
        signIn: fromPromise<Authenticated, LoginRequest>(async ({ input }) => ({ ...(await endpoints.login(input)), now: clock() }) as Authenticated),
        mfaSignIn: mfaSignInLogic(clock),
        signInWithPasskey: passkeySignInLogic(clock),
        selectClient: fromPromise<Authenticated, { clientId: number | null }>(async ({ input }) => ({
          ...(await endpoints.selectClient(input.clientId)),
          now: clock(),
        })),
        adoptSession: fromPromise<Authenticated, { token: string }>(async ({ input }) => ({
          token: input.token,
          ...(await endpoints.me(input.token)),
          now: clock(),
        })),
        saveProfile: fromPromise(({ input }: { input: { name?: string; avatarColor?: AvatarColor; timezone?: string | null } }) =>
          endpoints.updateProfile(input),
        ),
        saveSettings: fromPromise(async ({ input }: { input: Parameters<typeof endpoints.updateSettings>[0] }) => {
          persistSettingsLocally(input);
          return endpoints.updateSettings(input);
        }),
        // issue 49: a client's own providers when the sign-in page names it (/login?client=NORTHWIND)
        listIamProviders: fromPromise(() => endpoints.iamProviders(new URLSearchParams(window.location.search).get('client'))),
        exchangeIamTicket: fromPromise(async ({ input }: { input: { ticket: string } }) => ({ ...(await endpoints.iamExchange(input.ticket)), now: clock() })),
      },
      actions: {
        storeSession: (_, params) => writeSession(params),
        clearStoredSession: (_, params) => clearOwnSession(params?.token ?? null),
        callLogout: (_, { token }) => {
          // the session's reads on their way are dropped first: sent after the token is ended, they would be refused
          endSessionReads();
          // best-effort (§4); a recorded session's last entries go first, while its token still works
          // a session an identity provider signed in ends there too, where it offers that (issue 49: RP-initiated logout)
          if (token)
            void (uploader?.settled() ?? Promise.resolve())
              .then(() => endpoints.logout(token))
              .then((providerLogout) => providerLogout && window.location.assign(providerLogout))
              .catch(() => {});
        },
        goToProvider: (_, { url }) => window.location.assign(url),
      },
    },
    tabs: {
      input: { views: readStoredViews() },
      actions: {
        persistViews: (_, { views }) => sessionStorage.setItem(STORAGE.visitedViews, JSON.stringify(views)),
      },
    },
    companion: { actors: createCompanionTransport({ after: openingScreenRead }) },
    cardConnector: { actors: createCardConnectorTransport() },
    alarms: {
      actors: {
        // a user without the alarms privilege has no open alarms to load (and must not see a 403 toast for it)
        loadAlarms: fromPromise(async () => (storedPrivileges().has(PRIV.alarms.view) ? endpoints.openAlarms() : [])),
        acknowledgeAlarm: fromPromise(({ input }: { input: { id: string | number } }) => endpoints.acknowledgeAlarm(input.id)),
        processAlarm: fromPromise(({ input }: { input: ProcessRequest }) => endpoints.processAlarm(input.id, input.note)),
        forwardAlarm: fromPromise(({ input }: { input: ForwardRequest }) => endpoints.forwardAlarm(input)),
        shelveSource: fromPromise(({ input }: { input: ShelveRequest }) => endpoints.shelveSource(input)),
        loadForwardTargets: fromPromise(() => endpoints.forwardTargets()),
      },
    },
    options: {
      actors: {
        lookup: fromPromise(({ input, signal }: { input: LookupInput; signal: AbortSignal }) => endpoints.optionsOf(input.api, { ids: input.ids }, signal)),
        // a newer text stops this actor: its request is cancelled (silently, src/api/errors.ts)
        search: fromPromise(({ input, signal }: { input: SearchInput; signal: AbortSignal }) => endpoints.optionsOf(input.api, { q: input.q }, signal)),
      },
    },
    // a view's own actor is spawned with the logic the view brought (openViewActor)
    // a view's own actor runs the logic registered under its label (src/system/logic.ts)
    views: { resolve: (id) => viewLogic(id.replace(/#\d+$/, '')) },
    socket: {
      actors: {
        // this tab's session's token (not the stored one, which another tab may have changed before this tab followed)
        readToken: fromPromise(async () => (system ? getSystemActor(system, 'session').getSnapshot().context.token : null)),
        connection: createStompConnection(() => storedPrivileges()),
      },
    },
  };
}

let system: GatehouseSystem | null = null;
let journal: Journal | null = null;
/** Session replay (§9): uploads the journal of the sessions drawn for it (src/system/journalUpload.ts). */
let uploader: JournalUploader | null = null;

/** The browser's event journal (every event of the system, redacted), exported from the replay screen. */
export function getJournal(): Journal {
  return (journal ??= createJournal({ now: clock }));
}

let viewSeq = 0;

/**
 * A view's own actor (src/hooks/useViewActor.ts), opened as a child of the system's `views` (machines/views.ts) under
 * `<label>#<n>`; `closeViewActor` stops it. Its events reach the journal and the inspector with the system's.
 */
export function openViewActor(label: string, input: unknown): AnyActorRef {
  const views = systemActor('views');
  const id = `${label}#${++viewSeq}`;
  views.send({ type: 'view.open', id, input });
  const actor = views.system.get(id) as AnyActorRef | undefined;
  if (!actor) throw new Error(`The view actor '${id}' did not open: no logic is registered under '${label}' (src/system/logic.ts).`);
  followOpeningRead(actor);
  return actor;
}

export function closeViewActor(id: string): void {
  systemActor('views').send({ type: 'view.close', id });
}

/**
 * Resolves when the session is not changing token: switching client, or following another tab's session (at most 30 s:
 * a change that never answers ends nothing here).
 */
function untilSettled(session: SystemActors['session']): Promise<void> {
  const switching = (snap: ReturnType<SystemActors['session']['getSnapshot']>) =>
    snap.matches({ signedIn: 'switchingClient' }) || snap.matches({ signedIn: 'adopting' });
  if (!switching(session.getSnapshot())) return Promise.resolve();
  return waitFor(session, (snap) => !switching(snap), { timeout: 30_000 }).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * What a request of this tab waits for before it is judged (src/api/client.ts `settled`): the session not changing
 * token, and following a session another tab stored that this tab has not heard of yet. A client switch in another
 * tab ends the old token's session on the server, so a read of this tab can be refused for it before the storage event
 * that says so arrives; judged then, the refusal ended this tab's session and cleared the other tab's new one (the
 * other tab was signed out: e2e/client-switch.spec.ts, in CI). The stored session is followed here as that event
 * would (session.elsewhere), and the refusal is judged after: sent again under the same client, dropped under another.
 */
export async function settledSession(
  session: SystemActors['session'],
  stored: () => string | null = () => localStorage.getItem(STORAGE.jwt),
  now: () => number = clock,
): Promise<void> {
  await untilSettled(session);
  const snap = session.getSnapshot();
  const token = stored();
  if (!snap.hasTag('signedIn') || token === snap.context.token) return;
  session.send({ type: 'session.elsewhere', token, now: now() });
  await untilSettled(session);
}

let prepared: { impl: GatehouseImpl; machine: ReturnType<typeof gatehouseMachine> } | null = null;
/**
 * Issue 48: the system's machines built (machines/defined.ts: none is built as the console's code is evaluated) and
 * provided with the browser's implementations, in a task of their own before the system starts (src/app/App.tsx
 * `startConsole`): building them was most of the system start's task, a long task of a cold load.
 */
export function prepareSystem(): void {
  if (system || prepared) return;
  const impl = browserImpl();
  prepared = { impl, machine: gatehouseMachine(impl) };
}

/** The started actor system (singleton). Also wires the api client and the sleep-wake check to it. */
export function getSystem(): GatehouseSystem {
  if (system) return system;
  const recorder = getJournal().inspect;
  const inspector = createInspectorObserver();
  const observe = inspector
    ? (e: InspectionEvent) => {
        recorder(e);
        inspector(e);
      }
    : recorder;
  // issue 48: the live connection's libraries come after what the opening screen reads (./openingScreen.ts)
  loadLiveLibrariesAfter(openingScreenRead);
  openingScreenStarted();
  const { impl, machine } = prepared ?? { impl: browserImpl(), machine: undefined };
  prepared = null;
  const root = createGatehouseSystem(impl, { inspect: observe }, machine);
  system = root;
  // The token and client of this tab's session, not the stored ones: another tab of this browser may have switched
  // client or signed in as someone else, and until this tab has followed (session.elsewhere below) what its screens
  // send is of its own session (a refusal of that token then ends quietly: src/api/client.ts).
  const own = () => getSystemActor(root, 'session').getSnapshot().context;
  configureApi({
    getToken: () => own().token,
    getClientId: () => {
      const id = own().user?.clientId;
      return id === null || id === undefined ? null : String(id);
    },
    loginMode: () => getSystemActor(root, 'session').getSnapshot().context.loginMode,
    report: createErrorReporter({
      now: clock,
      notify,
      expire: (path) => getSystemActor(root, 'session').send({ type: 'session.expired', path }),
      currentPath: () => window.location.pathname + window.location.search,
    }),
    // a refusal of the old token during a client switch is judged once the new token is stored (or the switch failed)
    settled: () => settledSession(getSystemActor(root, 'session')),
    // a change of grants reaches the sidebar and routes on the next answer (issue 11)
    grants: (tag) => {
      const session = getSystemActor(root, 'session');
      const snap = session.getSnapshot();
      if (snap.hasTag('signedIn') && grantsTag(snap.context.privileges) !== tag) session.send({ type: 'session.grantsChanged' });
    },
  });
  root.start();
  // the selected client's zone, for rules of today's date (src/ui/time.ts getClientToday): followed here, outside
  // React, so it is set before any view renders on the new session (this subscriber comes before every view's)
  const session = getSystemActor(root, 'session');
  const followClientZone = (snap: ReturnType<SystemActors['session']['getSnapshot']>) => setClientZone(selectClientZone(snap));
  followClientZone(session.getSnapshot());
  session.subscribe(followClientZone);
  // The session is one per browser (localStorage): another tab's sign-in, client switch or sign-out is followed here.
  window.addEventListener('storage', (e) => {
    if (e.storageArea !== localStorage || (e.key !== STORAGE.jwt && e.key !== null)) return;
    session.send({ type: 'session.elsewhere', token: localStorage.getItem(STORAGE.jwt), now: clock() });
  });
  applyReplayQuery(window.location.search, localStorage);
  uploader = startJournalUploader(getSystemActor(root, 'session'), {
    journal: getJournal(),
    storage: localStorage,
    random: Math.random,
    newId: randomRecordingId,
  });
  const flushJournal = () => {
    if (document.visibilityState === 'hidden') uploader?.actor.send({ type: 'journal.flush' });
  };
  document.addEventListener('visibilitychange', flushJournal);
  window.addEventListener('pagehide', () => uploader?.actor.send({ type: 'journal.flush' }));
  const companion = getSystemActor(root, 'companion');
  startAlarmNotices(getSystemActor(root, 'alarms'), (title, message) => {
    if (selectCanNotify(companion.getSnapshot())) companion.send({ type: 'companion.notify', title, message });
  });
  startAlarmNotifications(getSystemActor(root, 'socket.events'), (title, message) => {
    if (selectCanNotify(companion.getSnapshot())) companion.send({ type: 'companion.notify', title, message });
  });
  // §7: every valid real-time body is rebroadcast as a document event (`gatehouse:/alarmcount`, …)
  for (const id of ['socket.events', 'socket.central', 'socket.visitor'] as const) {
    getSystemActor(root, id).on('socket.message', (e) => {
      document.dispatchEvent(new CustomEvent(`gatehouse:${e.destination}`, { detail: e.body }));
    });
  }
  startWakeCheck(() => {
    getSystemActor(root, 'session').send({ type: 'session.wake' });
    // after a sleep the socket may have missed messages: it resyncs (open alarms, and the events screen's gap)
    getSystemActor(root, 'socket.events').send({ type: 'socket.wake' });
  });
  return root;
}

/** A long-lived actor of the browser's system by systemId, typed (for the view engineer's useSystemActor). */
export function systemActor<K extends SystemActorId>(id: K): SystemActors[K] {
  return getSystemActor(getSystem(), id);
}
