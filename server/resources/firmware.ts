// Firmware [0.7.1.0] (contract/resources/firmware.ts): what the list and record say of an image (its size and SHA-256,
// read from the stored file; on how many controllers its version runs, on how many it is installing) and Roll out,
// which sends it to the controllers chosen on its page. The controllers install it on their own time (the hardware
// simulator's firmwareStep: event 1020 when it starts, 1021 with the new version FIRMWARE_INSTALL_MS later).
// Roll out records per controller the version it ran (firmware_rollout_progress); Cancel takes the image back from the
// controllers still installing it (they keep their version, those done keep the new one); Roll back sends the
// controllers that installed it their previous version. Each is audited with the controllers it touched.
import { PRIV } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import {
  cancelRolloutProgress,
  installedRollout,
  rolledBackProgress,
  rolloutControllers,
  sendFirmware,
  sendFirmwareTo,
  setRolloutState,
  startRolloutProgress,
  withdrawFirmware,
} from '../db/queries/firmware';

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
        const rows = await rolloutControllers(ctx.tx, ctx.clientId, before.id);
        // (the catalogue refuses an empty list already; chosen controllers since deleted leave none here)
        if (!rows.length)
          throw new HttpError(409, fill('firmware.chooseControllersFirst', 'Choose the controllers to roll it out to, and save, first.', {}), [
            { field: 'rolloutTo', ...fill('firmware.noControllers', 'choose at least one controller', {}) },
          ]);
        const ids = rows.map((r) => Number(r.id));
        // the version each ran before (kept from an earlier roll-out of this image that reached it)
        await startRolloutProgress(ctx.tx, before.id, ids);
        await sendFirmware(ctx.tx, ids, before.version);
        await setRolloutState(ctx.tx, before.id, 'installing');
      },
      audit: (before) => ({ before: null, after: { version: before.version, controllers: before.rolloutTo } }),
    },
    cancelRollout: {
      privilege: PRIV.firmware,
      async run(ctx, before) {
        const rows = await cancelRolloutProgress(ctx.tx, before.id);
        // those not done stop: the image is taken back, they keep the version they run
        await withdrawFirmware(
          ctx.tx,
          rows.map((r) => Number(r.controller_id)),
          before.version,
        );
        await setRolloutState(ctx.tx, before.id, 'cancelled');
      },
      audit: (before, after) => ({
        before: { rolloutState: before.rolloutState, progress: before.progress },
        after: { rolloutState: after.rolloutState, progress: after.progress },
      }),
    },
    rollBack: {
      privilege: PRIV.firmware,
      async run(ctx, before) {
        const rows = await installedRollout(ctx.tx, before.id);
        if (!rows.length)
          throw new HttpError(409, fill('firmware.nothingToRollBack', 'No controller installed this image: there is nothing to roll back.', {}));
        for (const r of rows) {
          await sendFirmwareTo(ctx.tx, r.controller_id, r.previous_version);
        }
        await rolledBackProgress(
          ctx.tx,
          before.id,
          rows.map((r) => Number(r.controller_id)),
        );
        await setRolloutState(ctx.tx, before.id, 'rolledBack');
      },
      audit: (before, after) => ({
        before: { rolloutState: before.rolloutState, progress: before.progress },
        after: { rolloutState: after.rolloutState, progress: after.progress },
      }),
    },
  },
};
