// The floor plan's time slider (machines/floorPlanTime.ts) with its REST calls provided (issue 50).
import { provided } from '../../machines/defined';
import { fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import { floorPlanTimeMachine, type ReadAlarmsInput, type ReadAtInput } from '../../machines/floorPlanTime';
import { floorPlanAlarms, floorPlanAt } from '../api/floorPlanHistory';

export const floorPlanTimeLogic = provided(floorPlanTimeMachine, {
  actors: {
    readAt: fromPromise(({ input, signal }: { input: ReadAtInput; signal: AbortSignal }) => floorPlanAt(input.planId, input.at, signal)),
    readAlarms: fromPromise(({ input, signal }: { input: ReadAlarmsInput; signal: AbortSignal }) =>
      floorPlanAlarms(input.planId, input.from, input.to, signal),
    ),
    // the play-back's steps: the browser's interval, stopped with the playing state
    ticker: fromCallback<AnyEventObject, { ms: number }>(({ sendBack, input }) => {
      const id = setInterval(() => sendBack({ type: 'play.tick' }), input.ms);
      return () => clearInterval(id);
    }),
  },
});
