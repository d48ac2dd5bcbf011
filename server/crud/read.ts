// Reading one row of a catalogue resource (GET …/:id), and a singleton's one row of the tenant (GET on the list path).
import type { FastifyInstance } from 'fastify';
import { actionCodes } from '../../contract';
import { idParam } from '../http/kit';
import type { CrudResource } from './context';

export function readRoutes(app: FastifyInstance, crud: CrudResource) {
  const { r, db, paths, one, scopeOf, load, singletonId } = crud;
  const readCodes = [...actionCodes(r, 'view'), ...(r.privileges.read ?? [])];
  app.get(paths.one, { config: { privileges: readCodes } }, async (req) => {
    const scope = await scopeOf(db, req, readCodes);
    return load(db, scope, idParam(req, one));
  });
  if (r.singleton) {
    app.get(paths.list, { config: { privileges: readCodes } }, async (req) => {
      const scope = await scopeOf(db, req, readCodes);
      return load(db, scope, await singletonId(req));
    });
  }
}
