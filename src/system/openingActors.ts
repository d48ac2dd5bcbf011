// The view actors the console's start asks for (issue 48): the header's client menu and the opening screen's readings
// and commands (the dashboard's figures, its doors and shift handover), with the helpers every screen's readings are
// made with (./readActors.ts). Registered in ./logic.ts with the rest; the other screens' logic (./screenLogic.ts)
// loads when a view first asks for one of its ids.
import { provided } from '../../machines/defined';
import { fromPromise } from 'xstate';
import { readingMachine } from '../../machines/reading';
import { commandMachine } from '../../machines/command';
import type { AcknowledgeHandoverBody } from '../../contract/handover';
import { acknowledgeHandover, dashboard, getLatestHandover, listClients, listDoors } from '../api/endpoints';
import { ApiError, isNotFound } from '../api/errors';

/** One read of a screen, by the call that answers it. */
export const reading = (read: (input: any) => Promise<unknown>) =>
  provided(readingMachine, { actors: { read: fromPromise<unknown, any>(({ input }) => read(input)) } });

/** The header's client menu: the clients the user may switch to (none without the right to list them). */
export const clientsReading = reading((input: { may: boolean } | null) =>
  input?.may ? listClients({ size: 100, sort: [{ field: 'name', dir: 'asc' }] }) : Promise.resolve(null),
);
/** The doors screen, the dashboard and the floor plan: the client's doors (live heart-beats are laid over them). */
export const doorsReading = reading((input: { enabled: boolean } | null) => (input?.enabled === false ? Promise.resolve(null) : listDoors()));

/** The dashboard's figures, read again (at most every DASHBOARD_LIVE_MS) after the real-time notices it follows (a live reading: `useReading(…, { live: true })`). */
export const dashboardReading = provided(readingMachine, { actors: { read: fromPromise<unknown, unknown>(() => dashboard()) } });

/** A form's command: what the call answered under `key`, or the violations of a refusal (400). */
export const formCommand = <I>(key: string, call: (input: I) => Promise<unknown>) =>
  provided(commandMachine, {
    actors: {
      run: fromPromise<unknown, { command: string; input?: unknown }>(async ({ input }) => {
        try {
          return { [key]: await call(input.input as I) };
        } catch (e) {
          if (e instanceof ApiError && e.status === 400 && e.violations.length) return { violations: e.violations };
          throw e;
        }
      }),
    },
  });

/** The dashboard's shift handover (issue 31): the digest of the shift that ended last (null before any has ended); and
 *  its acknowledgement, command `acknowledge` with input {end, note} (answers {acknowledged} or the note's violations). */
export const handoverReading = reading(() =>
  getLatestHandover().catch((e) => {
    if (isNotFound(e)) return null;
    throw e;
  }),
);
export const handoverCommands = formCommand<AcknowledgeHandoverBody>('acknowledged', acknowledgeHandover);
