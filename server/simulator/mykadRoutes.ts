// The card-reader service's REST endpoints (§7: /MyKad/getReaderList and /MyKad/myKad, no bearer token),
// answered from a card source such as the card connector simulator; server/app.ts registers them when given one.
// Both are no-token paths, so they are `open`.
import type { FastifyInstance } from 'fastify';
import { fill, type MyKad, type MyKadReader, type MyKadReaderList } from '../../contract';
import { HttpError } from '../http/kit';

/** What the routes need from a reader: the simulator fits. */
export interface CardReaderSource {
  readers(): MyKadReader[];
  /** Reads the card in the reader, or null without one. */
  readCard(): MyKad | null;
}

export function registerMyKadRoutes(app: FastifyInstance, { source }: { source: CardReaderSource }): void {
  app.get('/MyKad/getReaderList', { config: { open: true } }, async (): Promise<MyKadReaderList> => ({ readers: source.readers() }));
  // a refusal as every route answers one (its key and values beside the English: issue 48)
  app.get('/MyKad/myKad', { config: { open: true } }, async (): Promise<MyKad> => {
    if (source.readers().length === 0) throw new HttpError(404, fill('mykad.noReader', 'No card reader is connected', {}));
    const card = source.readCard();
    if (!card) throw new HttpError(404, fill('mykad.noCard', 'Insert an identity card into the reader', {}));
    return card;
  });
}
