// The badge-print actor's implementation in the browser: the desktop companion prints, then the server records
// when. The companion answers by request id; a missing companion, a failure or no answer in time rejects.
import { fromPromise } from 'xstate';
import type { BadgeVisitor, Sentence } from '../../contract';
import { COMPANION_SAID, type CompanionActor } from '../../machines/companion';
import { selectCanPrintBadge } from '../../machines/companion.selectors';
import { recordBadgePrinted } from '../api/endpointsScreens';

/** An error that carries what it says as a sentence (its key and values): badgePrint keeps it (errorSaid), the view says it. */
const saying = (sentence: Sentence) => Object.assign(new Error(sentence.message), { sentence });

/** How long the companion may take to answer a print before the console gives up. */
export const PRINT_TIMEOUT_MS = 30_000;
let seq = 0;

/** The companion is the actor system's (`companion`): the badge print actor runs inside the same system. */
export function printBadgeLogic() {
  return fromPromise<string, { visitorId: number; visitor: BadgeVisitor }>(async ({ input, signal, system }) => {
    const companion = system.get('companion') as CompanionActor;
    if (!selectCanPrintBadge(companion.getSnapshot())) throw saying(COMPANION_SAID.cannotPrintNow());
    const requestId = `badge-${input.visitorId}-${++seq}`;
    await new Promise<void>((resolve, reject) => {
      const subs = [
        companion.on('companion.badgePrinted', (e) => {
          if (e.requestId === requestId) done();
        }),
        companion.on('companion.failed', (e) => {
          if (e.requestId === requestId) done(saying(e.sentence));
        }),
        companion.on('companion.disconnected', () => done(saying(COMPANION_SAID.disconnectedBeforeAnswer()))),
      ];
      const timer = setTimeout(() => done(saying(COMPANION_SAID.noAnswerInTime())), PRINT_TIMEOUT_MS);
      const abort = () => done(new Error('cancelled'));
      signal.addEventListener('abort', abort);
      function done(error?: Error) {
        clearTimeout(timer);
        signal.removeEventListener('abort', abort);
        subs.forEach((s) => s.unsubscribe());
        if (error) reject(error);
        else resolve();
      }
      companion.send({ type: 'companion.printBadge', visitor: input.visitor, qr: `VISITOR-${input.visitorId}`, requestId });
    });
    const saved = await recordBadgePrinted(input.visitorId);
    return saved.badgePrintedAt ?? new Date().toISOString();
  });
}
