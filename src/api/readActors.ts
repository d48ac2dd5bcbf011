// The REST calls of the screen-owned machines (machines/reading.ts, machines/threatLevel.ts, machines/doorQr.ts),
// provided here so views only create the actor and read it (issue 11: no view calls src/api/endpoints).
import { fromPromise } from 'xstate';
import { readingMachine } from '../../machines/reading';
import { threatLevelMachine, type ThreatLevelInput, type ThreatRead, type ThreatRequest } from '../../machines/threatLevel';
import { doorQrCodeMachine, doorQrMachine, type DoorQrAnswer, type DoorQrTurn } from '../../machines/doorQr';
import type { DoorCommand } from '../../contract';
import { commandMachine } from '../../machines/command';
import {
  armAlarmGroup, listClients, listUserFieldDefs, controllerDiagnostic, controllerHub, doorCommand, explainEvent, getAlarmGroup, lockdown, deleteDivision, discoverInterfaces, forgiveInZone, pingController, zoneOccupancy, zoneOccupants, doorQrCode, listDoorQr, listDivisions, listDoors, listSpecialDates, setDoorQr, setThreatLevel, threatCurrent, threatLevelChoices, threatSetChoices,
} from './endpoints';

/** A form's division choices: every division of the client, by name (the form shows them as a tree). */
export const divisionChoices = readingMachine.provide({
  actors: { read: fromPromise<unknown, void>(() => listDivisions({ size: 1000, sort: [{ field: 'name', dir: 'asc' }] })) },
});
// the answers' types, for the views that show them (they import nothing of endpoints)
export type { AlarmGroupRow, DiscoveredBoard, SpecialDateRow } from './endpoints';

/** A view without anything to read (no division choice, no door rights) reads nothing. */
export const nothingToRead = readingMachine.provide({ actors: { read: fromPromise<unknown, void>(async () => null) } });

/** One read of a screen, by the call that answers it. */
const reading = (read: (input: any) => Promise<unknown>) => readingMachine.provide({ actors: { read: fromPromise<unknown, any>(({ input }) => read(input)) } });

/** The header's client menu: the clients the user may switch to (none without the right to list them). */
export const clientsReading = reading((input: { may: boolean } | null) => (input?.may ? listClients({ size: 100, sort: [{ field: 'name', dir: 'asc' }] }) : Promise.resolve(null)));
/** An extensible resource's form and list (identities): the client's user-defined fields. */
export const userFieldDefsReading = reading(() => listUserFieldDefs());
/** /configure/calendar: the client's special dates. */
export const specialDatesReading = reading(() => listSpecialDates());
/** /configure/controller-hub: every controller with its firmware and last heart-beat. */
export const controllerHubReading = reading(() => controllerHub());
/** /configure/interface/add: the boards the controllers' buses found that are not added yet. */
export const discoveredBoardsReading = reading(() => discoverInterfaces());
/** The doors screen, the dashboard and the floor plan: the client's doors (live heart-beats are laid over them). */
/** /configure/division: the client's divisions (the screen draws the tree). */
export const divisionsReading = reading(() => listDivisions({ size: 1000 }));
/** /hardware/controllers/diagnostic/:ip — the controller at that address, its boards and recent faults. */
export const controllerDiagnosticReading = reading((ip: string) => controllerDiagnostic(ip));
/** /configure/access-zone: how many are inside each zone; and who, in one zone. */
export const zoneOccupancyReading = reading(() => zoneOccupancy());
export const zoneOccupantsReading = reading((zoneId: number) => zoneOccupants(zoneId));
/** /configure/alarm-group/:id/…/alarm-zone: the alarm group as a zone. */
export const alarmGroupReading = reading((id: number) => getAlarmGroup(id));
export const doorsReading = reading((input: { enabled: boolean } | null) => (input?.enabled === false ? Promise.resolve(null) : listDoors()));

export const threatLevelLogic = threatLevelMachine.provide({
  actors: {
    read: fromPromise<ThreatRead, ThreatLevelInput>(async ({ input }) => {
      const [current, levels, divisions] = await Promise.all([threatCurrent(), threatLevelChoices(), input.mayControl ? listDivisions({ size: 500 }) : { items: [] }]);
      return { current, levels: levels.items, divisions: divisions.items.map((d) => ({ id: d.id, name: d.name })) };
    }),
    command: fromPromise(({ input }: { input: ThreatRequest }) => setThreatLevel(input.levelId, input.divisionId, input.minutes)),
  },
});

/** The doors screen's threat level panel (door control, 0.4.5.4): the level in force and what the user may set. */
export const threatChoicesLogic = threatLevelMachine.provide({
  actors: {
    read: fromPromise<ThreatRead, ThreatLevelInput>(async () => {
      const [current, choices] = await Promise.all([threatCurrent(), threatSetChoices()]);
      return { current, levels: choices.levels, divisions: choices.sites, wholeClient: choices.wholeClient };
    }),
    command: fromPromise(({ input }: { input: ThreatRequest }) => setThreatLevel(input.levelId, input.divisionId, input.minutes)),
  },
});

export const doorQrLogic = doorQrMachine.provide({
  actors: {
    list: fromPromise(() => listDoorQr()),
    turn: fromPromise(({ input }: { input: DoorQrTurn }) => setDoorQr(input.id, input.on)),
  },
});

export const doorQrCodeLogic = doorQrCodeMachine.provide({
  actors: {
    code: fromPromise<DoorQrAnswer, { doorId: number; credential: string }>(async ({ input }) => ({ code: await doorQrCode(input.doorId, input.credential), now: Date.now() })),
  },
});

/** One command at a time (machines/command.ts), by the call that runs it; the command names what it acts on. */
const commands = (run: (command: string) => Promise<unknown>) => commandMachine.provide({ actors: { run: fromPromise(({ input }: { input: { command: string } }) => run(input.command)) } });

/** `<divisionId>`: delete the division; answers its id. */
export const divisionCommands = commands(async (command) => { await deleteDivision(Number(command)); return Number(command); });
/** `<ip>`: ping the controller; answers the ping. */
export const pingCommands = commands((ip) => pingController(ip));
/** `<zoneId>|<identityId>`: let the identity badge into the zone again. */
export const forgiveCommands = commands((command) => { const [zoneId, identityId] = command.split('|').map(Number); return forgiveInZone(zoneId, identityId); });
/** `<groupId>|arm` or `<groupId>|disarm`: arm or disarm the alarm group; answers the group as it is then. */
export const armCommands = commands((command) => { const [id, what] = command.split('|'); return armAlarmGroup(Number(id), what === 'arm'); });
/** `<eventId>`: decide a stored swipe again; answers why it was denied. */
export const explainCommands = commands((id) => explainEvent(Number(id)));
/**
 * The doors screen: `<doorId>:<command>:[force]` sends a door command (answers its event); `lockdown:on|off:<divisionId|all>`
 * locks the doors down or releases them (answers how many doors).
 */
export const doorCommands = commands((command) => {
  if (command.startsWith('lockdown:')) {
    const [, what, where] = command.split(':');
    return lockdown(what === 'on', where && where !== 'all' ? Number(where) : null);
  }
  const [id, door, force] = command.split(':') as [string, DoorCommand, string];
  return doorCommand(Number(id), door, force === 'force');
});
