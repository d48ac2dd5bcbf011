// The whole actor system with every effect a controllable fake (model-tests/harness.ts createControls): the
// REST actors wait for the test to settle them, the sockets use the given connection logic.
import { fromCallback, fromPromise } from 'xstate';
import type { GatehouseImpl } from '../machines/system';
import type { ConnectionInput, SocketEvent } from '../machines/socket';
import type { createControls } from './harness';
import { LOGIN_A } from './fixtures';

type Connection = (args: { input: ConnectionInput; sendBack: (e: SocketEvent) => void }) => void;

export function fakeSystemImpl(controls: ReturnType<typeof createControls>, connection: Connection = () => {}): GatehouseImpl {
  return {
    session: {
      actors: {
        restoreSession: controls.logic(),
        fetchMe: controls.logic(),
        signIn: controls.logic(),
        selectClient: controls.logic(),
        saveProfile: controls.logic(),
        saveSettings: controls.logic(),
      },
      actions: { storeSession: () => {}, clearStoredSession: () => {}, callLogout: () => {}, goToProvider: () => {} },
    },
    tabs: { actions: { persistViews: () => {} } },
    companion: { actors: { shufflePorts: controls.logic(), probePort: controls.logic(), messages: controls.logic() } },
    cardConnector: { actors: { socket: controls.logic() } },
    alarms: {
      actors: {
        loadAlarms: controls.logic(),
        acknowledgeAlarm: controls.logic(),
        processAlarm: controls.logic(),
        forwardAlarm: controls.logic(),
        shelveSource: controls.logic(),
        loadForwardTargets: controls.logic(),
      },
    },
    options: { actors: { lookup: controls.logic(), search: controls.logic() } },
    views: { resolve: () => undefined },
    socket: {
      actors: {
        readToken: fromPromise(async () => LOGIN_A.token), // the sockets share one invoke id: answer at once
        connection: fromCallback<SocketEvent, ConnectionInput>(({ input, sendBack }) => {
          connection({ input, sendBack });
        }),
      },
    },
  } as unknown as GatehouseImpl;
}
