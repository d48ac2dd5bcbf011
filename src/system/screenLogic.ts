// The logic of the screens' own actors (issue 48): every named id but the few the console's start asks for
// (./openingActors.ts), and the catalogue resources' lists, forms and commands (./resourceLogic.ts). Loaded by ./logic.ts
// when a view first asks for one of them, not at the console's start: their REST calls (src/api/endpointsScreens.ts),
// their machines and the catalogue's full declarations come with it.
import { provided } from '../../machines/defined';
import { badgePrintMachine } from '../../machines/badgePrint';
import * as reads from './readActors';
import { liveEvents } from './liveEventActors';
import * as passwords from './passwordActors';
import * as mfaProfile from './mfaProfileActors';
import { printBadgeLogic } from './printBadge';
import { floorPlanTimeLogic } from './floorPlanTimeLogic';
import { sessionEnd } from './sessionActors';

export { resourceLogics } from './resourceLogic';

/** A visitor badge printed by the desktop companion (the system's `companion` actor). */
const badgePrintLogic = provided(badgePrintMachine, { actors: { print: printBadgeLogic() } });

export const SCREEN_LOGICS = {
  ...reads,
  ...passwords,
  ...mfaProfile,
  liveEvents,
  operatorSessionEnd: sessionEnd('operator'),
  serviceSessionEnd: sessionEnd('service'),
  badgePrintLogic,
  floorPlanTimeLogic,
};
