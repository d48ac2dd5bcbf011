// A catalogue resource's named actions (POST …/:id/<action>, hooks.actions): the declared record action's body and
// when it is possible (409 otherwise), the action's privilege (each family's edit code on its own rows), the row
// locked, the action's own audit view, a change notice and the action's afterCommit after the commit.
import type { FastifyInstance } from 'fastify';
import { actionCodes, isFilled, recordActionBody } from '../../contract';
import { HttpError, fill, body, idParam, principal } from '../http/kit';
import { audit } from '../audit/trail';
import type { CrudResource } from './context';

export function actionRoutes(app: FastifyInstance, crud: CrudResource) {
  const { r, db, hooks, fields, one, entity, paths, touching, scopeOf, ctxOf, load, auditView, auditClient, notify } = crud;
  for (const [name, action] of Object.entries(hooks.actions ?? {})) {
    // a record action the declaration names (screens.recordActions): its body (a reason) and when it is possible
    const declared = r.screens?.recordActions?.find((a) => a.action === name);
    const ActionBody = declared ? recordActionBody(declared) : null;
    // (privilege families: an action of the edit code is every family's edit code, each on its own family's rows)
    const actionCodesOf = r.privileges.families && actionCodes(r, 'edit').includes(action.privilege) ? actionCodes(r, 'edit') : [action.privilege];
    app.post(
      paths.action(name),
      { config: { privileges: actionCodesOf, ...touching(actionCodesOf, true), ...(ActionBody ? { body: ActionBody } : {}) } },
      async (req) => {
        const id = idParam(req, one);
        const input = ActionBody ? (body(req.body ?? {}, ActionBody) as Record<string, unknown>) : {};
        const scope = await scopeOf(db, req, actionCodesOf);
        const done = await db.transaction(async (tx) => {
          const before = await load(tx, scope, id, true);
          const when = declared?.when;
          if (when && !when.values.includes(String(before[when.field]))) {
            const fd = fields[when.field];
            const now = fd?.choices?.find((c) => c.value === before[when.field])?.label ?? String(before[when.field]);
            throw new HttpError(
              409,
              fill('record.actionNoLonger', '{action} is no longer possible: this {what} is now “{state}”.', {
                what: entity,
                state: now,
                action: declared!.label,
              }),
            );
          }
          const needs = declared?.needs;
          // the declaration's hint is a word of the console's dictionary, said as the button beside it says it (issue 48)
          if (needs && !isFilled(before[needs.field])) {
            const hint = fill('record.actionNeeds', '{hint}', { hint: needs.hint });
            throw new HttpError(409, hint, [{ field: needs.field, ...hint }]);
          }
          const clientId = auditClient(scope, id);
          await action.run(ctxOf(req, tx, clientId), before, input);
          const after = await load(tx, scope, id);
          const a = action.audit ? action.audit(before, after) : { before: auditView(before), after: auditView(after) };
          await audit(tx, req, { clientId, action: name, entity, entityId: id, ...a });
          return { after, clientId };
        });
        notify(done.clientId, { resource: r.name, id, action: name }, done.after);
        if (done.clientId !== null) await action.afterCommit?.(done.clientId, done.after, { username: principal(req).username });
        return req.oneTime ? { ...done.after, ...req.oneTime } : done.after;
      },
    );
  }
}
