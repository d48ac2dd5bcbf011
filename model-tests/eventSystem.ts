// The event service's socket actor with the real alarms and hardwareStatus machines beside it in one system, as the
// console runs them: the transport is a no-op (tests send its events), the jwt is stored, and the open alarms' REST
// read is the caller's.
import { createActor, fromCallback, fromPromise, setup, type InspectionEvent } from 'xstate';
import type { Event } from '../contract';
import { SOCKET_SYSTEM_IDS, socketMachine } from '../machines/socket';
import { alarmsMachine } from '../machines/alarms';
import { hardwareStatusMachine } from '../machines/hardwareStatus';

export const JWT = 'header.payload.signature';

export function eventSocketSystem(loadAlarms: () => Promise<Event[]>, inspect?: (e: InspectionEvent) => void) {
  const root = setup({ actors: { socket: socketMachine, alarms: alarmsMachine, hardwareStatus: hardwareStatusMachine } }).createMachine({
    invoke: [
      { id: 'alarms', systemId: 'alarms', src: 'alarms' },
      { id: 'hardwareStatus', systemId: 'hardwareStatus', src: 'hardwareStatus' },
      { id: 'socket', systemId: SOCKET_SYSTEM_IDS.event, src: 'socket', input: { service: 'event' as const } },
    ],
  });
  const actor = createActor(
    root.provide({
      actors: {
        socket: socketMachine.provide({ actors: { readToken: fromPromise<string | null>(async () => JWT), connection: fromCallback(() => () => {}) } }),
        alarms: alarmsMachine.provide({ actors: { loadAlarms: fromPromise<Event[]>(loadAlarms) } }),
      },
    }),
    { inspect },
  ).start();
  return {
    actor,
    socket: actor.system.get(SOCKET_SYSTEM_IDS.event)!,
    alarms: actor.system.get('alarms')!,
    hardware: actor.system.get('hardwareStatus')!,
  };
}
