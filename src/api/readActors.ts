// The REST calls of the screen-owned machines (machines/reading.ts, machines/threatLevel.ts, machines/doorQr.ts),
// provided here so views only create the actor and read it (issue 11: no view calls src/api/endpoints).
import { fromPromise } from 'xstate';
import { readingMachine } from '../../machines/reading';
import { threatLevelMachine, type ThreatLevelInput, type ThreatRead, type ThreatRequest } from '../../machines/threatLevel';
import { doorQrCodeMachine, doorQrMachine, type DoorQrAnswer, type DoorQrTurn } from '../../machines/doorQr';
import { doorQrCode, listDoorQr, listDivisions, setDoorQr, setThreatLevel, threatCurrent, threatLevelChoices } from './endpoints';

/** A form's division choices: every division of the client, by name (the form shows them as a tree). */
export const divisionChoices = readingMachine.provide({
  actors: { read: fromPromise<unknown, void>(() => listDivisions({ size: 1000, sort: [{ field: 'name', dir: 'asc' }] })) },
});
/** A form without a division choice reads nothing. */
export const nothingToRead = readingMachine.provide({ actors: { read: fromPromise<unknown, void>(async () => null) } });

export const threatLevelLogic = threatLevelMachine.provide({
  actors: {
    read: fromPromise<ThreatRead, ThreatLevelInput>(async ({ input }) => {
      const [current, levels, divisions] = await Promise.all([threatCurrent(), threatLevelChoices(), input.mayControl ? listDivisions({ size: 500 }) : { items: [] }]);
      return { current, levels: levels.items, divisions: divisions.items.map((d) => ({ id: d.id, name: d.name })) };
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
