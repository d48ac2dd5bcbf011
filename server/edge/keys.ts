// Gatehouse Edge's controller keys (issue 47), as named actions of the controllers' catalogue resource:
// `POST …/controllers/:id/edge-key` makes the controller's key (or a new one in place of the old), answered once;
// `POST …/controllers/:id/revoke-edge-key` stops it. A key is a service account's API key (server/auth/apiKeys.ts)
// bound to the controller (migration 132): in its client only, with the device interface's role, and only for its own
// controller's doors (the edge connection and the device interface check the binding). Its account shows on the
// Service accounts screen like any other. Rotating or revoking ends the old key's session; the change notice after the
// commit drops the controller's live connection; deleting the controller deletes its account.
import { EDGE_MAX_OFFLINE_DAYS, PRIV } from '../../contract';
import { endKeySession, newApiKey } from '../auth/apiKeys';
import type { CrudContext, ResourceHooks } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import { boundAccount, ensureEdgeController, makeKeyAccount, reissueKey, revokeKey, type Bound } from '../db/queries/edgeKeys';
import { SOFT_APB_DOORS } from '../db/queries/doors';

/** The role an edge controller's account holds (the device interface's). */
export const EDGE_ROLE = 'device-ingest';

/** What the controllers list says of an edge controller (contract/resources/hardware.ts `edge`), from edge_controllers. */
const EDGE_SUMMARY = `(select case when e.connected_at is not null and e.disconnected_at is null
      then 'online since ' || to_char(e.connected_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC'
      else 'offline' || coalesce(' since ' || to_char(e.disconnected_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC', ', never connected') end
    || ', snapshot v' || e.snapshot_version || case when e.applied_version = e.snapshot_version then '' else ' (applied v' || e.applied_version || ')' end
    || ', ' || e.pending || ' buffered' || coalesce(', edge ' || e.edge_version, '')
    || coalesce(', snapshot built ' || to_char(e.applied_built_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC', '')
  from edge_controllers e where e.controller_id = t.id)`;

/** Access zones (issue 47): a hard zone's doors on an edge controller that is offline (soft until it reconnects). */
export const zoneHooks: ResourceHooks = {
  select: {
    edgeSoftDoors: `(select count(distinct s.door_id)::int from ${SOFT_APB_DOORS} s where s.zone_id = t.id and s.client_id = t.client_id)`,
    edgeSoftControllers: `(select string_agg(distinct s.controller_name, ', ') from ${SOFT_APB_DOORS} s where s.zone_id = t.id and s.client_id = t.client_id)`,
  },
};

/** The controllers' edge-key actions; a rotated or revoked key's connection is dropped by the change notice that
 *  follows the commit (server/edge/index.ts), its session ended here. */
export const controllerHooks = (): ResourceHooks => {
  async function endOld(ctx: CrudContext, bound: Bound | null) {
    if (bound?.key_id) await endKeySession(ctx.tx, bound.key_id, ctx.username);
  }
  return {
    select: {
      edge: EDGE_SUMMARY,
      edgeSince: `(select case when e.connected_at is not null and e.disconnected_at is null then e.connected_at else e.disconnected_at end
        from edge_controllers e where e.controller_id = t.id)`,
      edgeState: `(select case when e.connected_at is not null and e.disconnected_at is null then 'online' else 'offline' end
        from edge_controllers e where e.controller_id = t.id)`,
      edgeSnapshot: `(select e.snapshot_version::int from edge_controllers e where e.controller_id = t.id)`,
      edgeApplied: `(select e.applied_version::int from edge_controllers e where e.controller_id = t.id)`,
      // the snapshot the edge holds: when the server built it (the age of its rules) and when the edge applied it
      edgeBuiltAt: `(select e.applied_built_at from edge_controllers e where e.controller_id = t.id)`,
      edgeAppliedAt: `(select e.applied_at from edge_controllers e where e.controller_id = t.id)`,
      // its doors in a zone of hard anti-passback (soft while the edge is offline)
      edgeSoftApb: `(select count(*)::int from doors d where exists (select 1 from edge_controllers e where e.controller_id = t.id)
          and d.client_id = t.client_id and d.id in (select door_id from card_readers where controller_id = t.id
            union select door_id from inputs where controller_id = t.id union select door_id from outputs where controller_id = t.id)
          and exists (select 1 from access_zones z where z.id in (d.entry_zone_id, d.exit_zone_id) and z.client_id = t.client_id and z.anti_passback = 'hard'))`,
      edgePending: `(select e.pending from edge_controllers e where e.controller_id = t.id)`,
      edgeVersion: `(select e.edge_version from edge_controllers e where e.controller_id = t.id)`,
      // its doors' degraded policies counted (the doors of its readers, inputs and outputs), `keep:2,locked:1`
      edgeDegraded: `(select string_agg(x.p || ':' || x.n, ',' order by x.p) from (select d.degraded_policy p, count(*) n from doors d
          where exists (select 1 from edge_controllers e where e.controller_id = t.id) and d.id in (
            select door_id from card_readers where controller_id = t.id union select door_id from inputs where controller_id = t.id
            union select door_id from outputs where controller_id = t.id) group by 1) x)`,
      edgeKey: `(select case when s.key_id is null then null when s.key_revoked_at is null then 'active' else 'revoked' end
        from service_accounts s where s.controller_id = t.id and s.client_id = t.client_id order by s.id desc limit 1)`,
      edgeMaxOfflineDays: `(select coalesce((select p.edge_max_offline_days from central_properties p where p.client_id = t.client_id), ${EDGE_MAX_OFFLINE_DAYS})
        from edge_controllers e where e.controller_id = t.id)`,
    },
    actions: {
      'edge-key': {
        privilege: PRIV.controllers.edit,
        async run(ctx, before) {
          const clientId = ctx.clientId!;
          const key = newApiKey();
          const bound = await boundAccount(ctx.tx, clientId, before.id);
          if (bound) {
            await reissueKey(ctx.tx, clientId, bound.id, key);
            await endOld(ctx, bound);
          } else {
            await makeKeyAccount(ctx.tx, clientId, before.id, String(before.name), EDGE_ROLE, key);
          }
          await ensureEdgeController(ctx.tx, clientId, before.id);
          ctx.req.oneTime = { apiKey: key.key };
        },
        audit: (before) => ({ before: null, after: { edgeKey: `issued for ${String(before.name)}` } }),
      },
      'revoke-edge-key': {
        privilege: PRIV.controllers.edit,
        async run(ctx, before) {
          const clientId = ctx.clientId!;
          const bound = await boundAccount(ctx.tx, clientId, before.id);
          if (!bound?.key_id || bound.key_revoked_at)
            throw new HttpError(409, fill('edge.noKeyToRevoke', '{name} has no edge key to revoke', { name: String(before.name) }));
          await revokeKey(ctx.tx, clientId, bound.id);
          await endOld(ctx, bound);
        },
        audit: (before) => ({ before: null, after: { edgeKey: `revoked for ${String(before.name)}` } }),
      },
    },
  };
};
