// What some catalogue hooks need after a commit beyond `publish`: the database and the event pipeline of their server
// (a watchlist match raises an alarm; a leave request is mailed). The hooks are made with the server's `publish`
// (server/resources/index.ts); server/alarms/index.ts registers the parts under the same `publish`, so two servers in
// one process (tests) never mix them.
import type { Db } from '../db/db';
import type { Pipeline } from '../monitor/pipeline';

export type CatalogueParts = { record: Pipeline['record']; db: Db };
const parts = new WeakMap<object, CatalogueParts>();
export const registerCatalogueParts = (publish: object, p: CatalogueParts) => parts.set(publish, p);
export const partsOf = (publish?: object): CatalogueParts | undefined => (publish ? parts.get(publish) : undefined);
