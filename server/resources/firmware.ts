// Firmware [0.7.1.0] (contract/resources/firmware.ts): what the list and record say of an image (its size and SHA-256,
// read from the stored file; on how many controllers its version runs, on how many it is installing) and Roll out,
// which sends it to the controllers chosen on its page. The controllers install it on their own time (the hardware
// simulator's firmwareStep: event 1020 when it starts, 1021 with the new version FIRMWARE_INSTALL_MS later).
// Roll out records per controller the version it ran (firmware_rollout_progress); Cancel takes the image back from the
// controllers still installing it (they keep their version, those done keep the new one); Roll back sends the
// controllers that installed it their previous version. Each is audited with the controllers it touched.
import { PRIV } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { HttpError } from '../http/kit';
import { tenant } from '../db/tenant';

const bytesOf = `decode(split_part(t.file, ',', 2), 'base64')`;

export const firmwareHooks: ResourceHooks = {
  select: {
    bytes: `octet_length(${bytesOf})`,
    sha256: `encode(sha256(${bytesOf}), 'hex')`,
    installedOn: `(select count(*)::int from controllers c where c.client_id = t.client_id and c.firmware = t.version and c.firmware_target is null)`,
    installing: `(select count(*)::int from controllers c where c.client_id = t.client_id and c.firmware_target = t.version)`,
    progress: `(select string_agg(c.name || ': ' || case p.state when 'installing' then 'installing' when 'done' then 'runs it'
        when 'cancelled' then 'cancelled, keeps ' else 'rolled back to ' end
        || case when p.state in ('cancelled', 'rolledBack') then coalesce(p.previous_version, 'no version') else '' end
        || case when p.state in ('installing', 'done') and p.previous_version is not null then ' (ran ' || p.previous_version || ')' else '' end, '; ' order by c.name)
      from firmware_rollout_progress p join controllers c on c.id = p.controller_id where p.firmware_id = t.id)`,
  },
  actions: {
    rollOut: {
      privilege: PRIV.firmware,
      async run(ctx, before) {
        const params: unknown[] = [before.id];
        const { rows } = await ctx.tx.query<{ id: number }>(
          `select c.id from firmware_rollouts r join controllers c on c.id = r.controller_id and ${tenant(params, ctx.clientId, 'c')} where r.firmware_id = $1`,
          params,
        );
        // (the catalogue refuses an empty list already; chosen controllers since deleted leave none here)
        if (!rows.length)
          throw new HttpError(409, 'Choose the controllers to roll it out to, and save, first.', [
            { field: 'rolloutTo', message: 'choose at least one controller' },
          ]);
        const ids = rows.map((r) => Number(r.id));
        // the version each ran before (kept from an earlier roll-out of this image that reached it)
        await ctx.tx.query(
          `insert into firmware_rollout_progress (firmware_id, controller_id, previous_version, state)
            select $1, c.id, c.firmware, 'installing' from controllers c where c.id = any($2::int[])
          on conflict (firmware_id, controller_id) do update set state = 'installing', updated_at = now(),
            previous_version = case when firmware_rollout_progress.state = 'done' then firmware_rollout_progress.previous_version else excluded.previous_version end`,
          [before.id, ids],
        );
        await ctx.tx.query(`update controllers set firmware_target = $2, firmware_sent_at = now(), firmware_started = false where id = any($1::int[])`, [
          ids,
          before.version,
        ]);
        await ctx.tx.query(`update firmware_images set rollout_state = 'installing' where id = $1`, [before.id]);
      },
      audit: (before) => ({ before: null, after: { version: before.version, controllers: before.rolloutTo } }),
    },
    cancelRollout: {
      privilege: PRIV.firmware,
      async run(ctx, before) {
        const { rows } = await ctx.tx.query<{ controller_id: number }>(
          `update firmware_rollout_progress set state = 'cancelled', updated_at = now() where firmware_id = $1 and state = 'installing' returning controller_id`,
          [before.id],
        );
        // those not done stop: the image is taken back, they keep the version they run
        await ctx.tx.query(
          `update controllers set firmware_target = null, firmware_sent_at = null, firmware_started = false
          where id = any($1::int[]) and firmware_target = $2`,
          [rows.map((r) => Number(r.controller_id)), before.version],
        );
        await ctx.tx.query(`update firmware_images set rollout_state = 'cancelled' where id = $1`, [before.id]);
      },
      audit: (before, after) => ({
        before: { rolloutState: before.rolloutState, progress: before.progress },
        after: { rolloutState: after.rolloutState, progress: after.progress },
      }),
    },
    rollBack: {
      privilege: PRIV.firmware,
      async run(ctx, before) {
        const { rows } = await ctx.tx.query<{ controller_id: number; previous_version: string | null }>(
          `select controller_id, previous_version from firmware_rollout_progress where firmware_id = $1 and state = 'done' and previous_version is not null`,
          [before.id],
        );
        if (!rows.length) throw new HttpError(409, 'No controller installed this image: there is nothing to roll back.');
        for (const r of rows) {
          await ctx.tx.query(`update controllers set firmware_target = $2, firmware_sent_at = now(), firmware_started = false where id = $1`, [
            r.controller_id,
            r.previous_version,
          ]);
        }
        await ctx.tx.query(
          `update firmware_rollout_progress set state = 'rolledBack', updated_at = now() where firmware_id = $1 and controller_id = any($2::int[])`,
          [before.id, rows.map((r) => Number(r.controller_id))],
        );
        await ctx.tx.query(`update firmware_images set rollout_state = 'rolledBack' where id = $1`, [before.id]);
      },
      audit: (before, after) => ({
        before: { rolloutState: before.rolloutState, progress: before.progress },
        after: { rolloutState: after.rolloutState, progress: after.progress },
      }),
    },
  },
};
