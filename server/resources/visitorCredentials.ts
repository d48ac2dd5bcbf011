// Batch add of visitor credentials [1.2.4] (§2 Visitor "credentials [1.2.x] and batch add [1.2.4]"): a box of new
// cards numbered in a row. The catalogue serves the list and the one-by-one form; adding many at once is a collection
// action the catalogue has no hook for, so it is this route. All or nothing: a number already a visitor credential
// of the client refuses the whole batch on `first`, naming it, and nothing is stored. One audit row per batch.
import type { FastifyInstance } from 'fastify';
import {
  PRIV,
  VISITOR_CREDENTIAL_BATCH_API,
  VisitorCredentialBatch,
  batchNumbers,
  visitorCredentialsResource,
  type VisitorCredentialBatchResult,
} from '../../contract';
import type { Db } from '../db/db';
import { HttpError, body, clientOf, fill, INVALID_REQUEST } from '../http/kit';
import { audit } from '../audit/trail';
import { insertVisitorCredentials } from '../db/queries/visitorCredentials';

type Publish = (clientId: number, destination: string, body: unknown) => void;

export function visitorCredentialBatchRoutes(app: FastifyInstance, { db, publish }: { db: Db; publish: Publish }) {
  app.post(
    VISITOR_CREDENTIAL_BATCH_API,
    { config: { privileges: [PRIV.visitorCredentials.batchAdd], touches: 'client' } },
    async (req, reply): Promise<VisitorCredentialBatchResult> => {
      const clientId = clientOf(req);
      const batch = body(req.body, VisitorCredentialBatch);
      const made = batchNumbers(batch);
      if ('field' in made) throw new HttpError(400, INVALID_REQUEST, [made]);
      const { numbers } = made;
      const ids = await db.transaction(async (tx) => {
        // one statement: the numbers already in use are the ones it skips (the unique index decides, even against a
        // batch written at the same moment), and any skipped one refuses the whole batch (the transaction rolls back)
        const inserted = await insertVisitorCredentials(tx, clientId, numbers, batch.kind);
        if (inserted.length < numbers.length) {
          const added = new Set(inserted.map((r) => r.number));
          const taken = numbers.filter((n) => !added.has(n));
          const said =
            taken.length > 1
              ? fill('visitorCredential.numbersTaken', 'takes numbers already in use: {first} and {more} more', { first: taken[0], more: taken.length - 1 })
              : fill('visitorCredential.numberTaken', 'takes numbers already in use: {first}', { first: taken[0] });
          throw new HttpError(400, INVALID_REQUEST, [{ field: 'first', ...said }]);
        }
        await audit(tx, req, {
          clientId,
          action: 'batch-add',
          entity: visitorCredentialsResource.name,
          entityId: null,
          before: null,
          after: { ...batch, numbers: `${numbers[0]} … ${numbers.at(-1)}` },
        });
        return inserted.map((r) => Number(r.id));
      });
      // open lists read again, as after any other change (one notice for the batch)
      publish(clientId, `/changes/${visitorCredentialsResource.name}`, { resource: visitorCredentialsResource.name, id: ids[0], action: 'create' });
      reply.status(201);
      return { added: ids.length, firstNumber: numbers[0], lastNumber: numbers.at(-1)! };
    },
  );
}
