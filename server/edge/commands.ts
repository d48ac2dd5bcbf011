// Door commands over Gatehouse Edge's link (issue 47): the console's door actions (lock, unlock, open briefly), a
// lockdown, a threat level, an override, an unlock schedule or a logical block on a door of an edge controller go to
// that controller's edge over its link, never to the server's simulated strike. The edge applies the command to the
// door's (simulated) I/O, journals the event (Door locked / unlocked / momentarily unlocked at the door's output) and
// answers with its journal number; the server waits for that event to be stored (it comes up the device interface as
// every edge event does) and answers with it. An edge that is not connected, or does not answer in time, refuses the
// command (HardwareError 409 naming the door and its controller, which the console shows: it does not reach the door);
// the edge refuses a door that is not in its snapshot. A lockdown or threat level is recorded on the server whatever
// its doors' edges are: each door it could not reach is named in its answer (commandEach), and the edge gets the mode
// with its snapshot when it reconnects, where it locks the strike itself (edge/doorIo.ts).
import { EDGE_COMMAND_TIMEOUT_MS, fill, type DoorCommand, type EdgeDoorCommand, type DoorUnreached, type Event } from '../../contract';
import type { Db } from '../db/db';
import { edgeControllerOfDoor } from '../db/queries/edgeKeys';
import { HardwareError, type Actor, type HardwarePort } from '../doors/port';
import { saidOf } from '../http/kit';
import type { EdgeHub } from './hub';
import type { EdgeIngest } from './ingest';

/**
 * One command to many doors (a lockdown, a threat level that holds the doors locked): a door that cannot be reached
 * (its edge controller offline, or no answer in time) is named with why, and the others go on. What the lockdown or
 * threat level put in force is already recorded on the server: it is in the snapshot the edge gets when it reconnects.
 */
export async function commandEach(
  port: Pick<HardwarePort, 'command'>,
  clientId: number,
  doorIds: readonly number[],
  cmd: DoorCommand,
  actor: Actor,
  opts: { force?: boolean } = {},
): Promise<DoorUnreached[]> {
  const unreached: DoorUnreached[] = [];
  for (const doorId of doorIds) {
    try {
      await port.command(clientId, doorId, cmd, actor, opts);
    } catch (e) {
      if (!(e instanceof HardwareError)) throw e;
      unreached.push({ doorId, message: e.message });
    }
  }
  return unreached;
}

/** Who a command is by, as the edge takes it: a person's name, or what acted as its sentence (its key said at the door's
 *  event, the server's own door events' way), its English at most 200 characters. */
const edgeActor = (a: Actor): EdgeDoorCommand['actor'] =>
  typeof a === 'string' ? a.slice(0, 200) : { message: a.message.slice(0, 200), code: a.code, values: a.values };

/**
 * The hardware port's door commands, routed: a door of an edge controller goes to its edge, any other to `port`'s
 * own (the simulator's strike). The port object is changed in place, so every room holding it (doors, threat levels,
 * overrides, unlock schedules, logical blocks) sends through it.
 */
export function routeDoorCommands(port: HardwarePort, deps: { db: Db; hub: EdgeHub; ingest: EdgeIngest }): void {
  const own = port.command.bind(port);
  const command = async (clientId: number, doorId: number, cmd: DoorCommand, actor: Actor, opts: { force?: boolean } = {}): Promise<Event> => {
    const edge = await edgeControllerOfDoor(deps.db, clientId, doorId);
    if (!edge) return own(clientId, doorId, cmd, actor, opts);
    if (!deps.hub.connected().some((c) => c.controllerId === edge.controllerId))
      throw new HardwareError(
        409,
        fill(
          'edge.doorOffline',
          '{door}: its Gatehouse Edge controller {controller} is offline, so the command cannot reach the door (a lockdown or threat level reaches it with its rules when it reconnects)',
          { door: edge.name, controller: edge.controllerName },
        ),
      );
    const r = await deps.hub.command(edge.controllerId, { type: 'door', doorId, command: cmd, actor: edgeActor(actor), force: !!opts.force }, edge.name);
    // the edge's refusal as it said it (a door's refusal names the door, as the server's own doors do)
    if (!r.ok) throw new HardwareError(409, r.code ? saidOf(r) : r.message.startsWith(edge.name) ? r.message : `${edge.name} ${r.message}`);
    const event = await deps.ingest.stored(edge.controllerId, r.seq, EDGE_COMMAND_TIMEOUT_MS);
    if (!event)
      throw new HardwareError(
        409,
        fill('edge.eventNotYet', '{door}: the edge applied the command, but its event has not reached the server yet', { door: edge.name }),
      );
    return event;
  };
  (port as { command: HardwarePort['command'] }).command = command;
}
