// Who may hear what in real time (issue 4, §6): a SUBSCRIBE to a destination needs one of the privileges of
// the screens that consume it, so an alarm never reaches a console whose user may not see alarms. The broker
// (server/realtime) refuses the rest with an ERROR frame; the console (src/transport/stomp.ts) never asks.
import { PRIV } from './privileges';
import { CATALOGUE_INDEX, resourceSummary } from './resources/catalogueIndex';
import { DESTINATIONS, SERVICE_DESTINATIONS, baseDestination, changedResourceOf, type Destination, type RealtimeService } from './realtime';

/** Any one suffices; null: every signed-in user (the echo channel). */
export const DESTINATION_PRIVILEGES: Readonly<Record<Destination, readonly string[] | null>> = {
  // alarms screen (new alarms arrive as events), live events screen, floor-plan monitor
  [DESTINATIONS.events]: ['0.2.1.0', '0.2.2.0', '0.2.3.0'],
  // the alarms screen only: actions, counts and acknowledgements of alarms
  [DESTINATIONS.alarmAction]: ['0.2.1.0'],
  [DESTINATIONS.alarmCount]: ['0.2.1.0'],
  [DESTINATIONS.acknowledge]: ['0.2.1.0'],
  // hardware status: live events, floor-plan monitor, the interface, input, output and card-reader screens
  [DESTINATIONS.hardware]: ['0.2.2.0', '0.2.3.0', '0.5.1.0', '0.5.3.0', '0.5.4.0', '0.5.5.0'],
  // door heart-beats: doors, floor-plan monitor
  [DESTINATIONS.doorHeartbeat]: ['0.4.5.0', '0.2.3.0'],
  // controller heart-beats: controllers, controller hub, floor-plan monitor
  [DESTINATIONS.controllerHeartbeat]: ['0.5.6.0', '0.5.7.0', '0.2.3.0'],
  // OSDP readers' status (issue 46): the controller pages and the card reader pages that show it
  [DESTINATIONS.osdpReaders]: [PRIV.controllers.view, PRIV.cardReaders.view],
  // visitor management's sign-ins and sign-outs
  [DESTINATIONS.clocking]: ['1.0.0'],
  // door QR codes
  [DESTINATIONS.dynamicQr]: ['0.4.5.5'],
  // alarm notifications to an operator group's consoles: those who may see alarms (each notice names its users)
  [DESTINATIONS.alarmNotice]: ['0.2.1.0', '0.2.2.0', '0.2.3.0'],
  [DESTINATIONS.greetings]: null,
  // catalogue change notices: only per resource (`/changes/{resource}`), below
  [DESTINATIONS.changes]: [],
};

/**
 * Change notices heard beyond the resource's own screens: the threat level put in force or lowered is told as the
 * threat levels' change, and holders of door control see and set it on the doors screen (without 0.4.4.x).
 */
const CHANGES_ALSO_FOR: Readonly<Record<string, readonly string[]>> = { threatLevels: [PRIV.doors.control] };

/** The privileges a destination needs (any one), null when none; unknown destinations need the impossible. */
export function privilegesForDestination(destination: string): readonly string[] | null {
  const changed = changedResourceOf(destination);
  if (changed !== null) {
    // a resource's change notices go to those who may open its list or its records
    const r = resourceSummary(changed);
    return r ? [r.privileges.view, ...(r.privileges.read ?? []), ...(CHANGES_ALSO_FOR[changed] ?? [])] : [];
  }
  const base = baseDestination(destination);
  return base ? DESTINATION_PRIVILEGES[base] : [];
}

/** May a user holding `held` subscribe to `destination`? */
export function mayReceive(held: ReadonlySet<string>, destination: string): boolean {
  const needed = privilegesForDestination(destination);
  return needed === null || needed.some((c) => held.has(c));
}

/** The destinations of a service a user holding `held` subscribes to. */
export function receivableDestinations(service: RealtimeService, held: ReadonlySet<string>): Destination[] {
  return SERVICE_DESTINATIONS[service].filter((d) => mayReceive(held, d));
}

/** The change notices (`/changes/{resource}`, on the central service) of every catalogue resource the user may open. */
export function receivableChangeDestinations(held: ReadonlySet<string>): string[] {
  return CATALOGUE_INDEX.map((r) => `${DESTINATIONS.changes}/${r.name}`).filter((d) => mayReceive(held, d));
}
