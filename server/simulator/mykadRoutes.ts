// The card-reader service's REST endpoints (§7: /MyKad/getReaderList and /MyKad/myKad, no bearer token),
// answered from a card source such as the card connector simulator; server/app.ts registers them when given one.
// Both are no-token paths, so they are `open`.
import type { FastifyInstance } from 'fastify';
import type { MyKad, MyKadReader, MyKadReaderList } from '../../contract';

/** What the routes need from a reader: the simulator fits. */
export interface CardReaderSource {
  readers(): MyKadReader[];
  /** Reads the card in the reader, or null without one. */
  readCard(): MyKad | null;
}

export function registerMyKadRoutes(app: FastifyInstance, { source }: { source: CardReaderSource }): void {
  app.get('/MyKad/getReaderList', { config: { open: true } }, async (): Promise<MyKadReaderList> => ({ readers: source.readers() }));
  app.get('/MyKad/myKad', { config: { open: true } }, async (_req, reply) => {
    if (source.readers().length === 0) {
      return reply.code(404).send({ status: 404, error: 'Not Found', message: 'No card reader is connected' });
    }
    const card = source.readCard();
    if (!card) return reply.code(404).send({ status: 404, error: 'Not Found', message: 'Insert an identity card into the reader' });
    return card;
  });
}
