// Firmware [0.7.1.0] (contract/resources/firmware.ts): what the list and record say of an image (its size and SHA-256,
// read from the stored file; on how many controllers its version runs, on how many it is installing) and Roll out,
// which sends it to the controllers chosen on its page. The controllers install it on their own time (the hardware
// simulator's firmwareStep: event 1020 when it starts, 1021 with the new version FIRMWARE_INSTALL_MS later).
import { PRIV } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { HttpError } from '../http/common';

const bytesOf = `decode(split_part(t.file, ',', 2), 'base64')`;

export const firmwareHooks: ResourceHooks = {
  select: {
    bytes: `octet_length(${bytesOf})`,
    sha256: `encode(sha256(${bytesOf}), 'hex')`,
    installedOn: `(select count(*)::int from controllers c where c.client_id = t.client_id and c.firmware = t.version and c.firmware_target is null)`,
    installing: `(select count(*)::int from controllers c where c.client_id = t.client_id and c.firmware_target = t.version)`,
  },
  actions: {
    rollOut: {
      privilege: PRIV.firmware,
      async run(ctx, before) {
        const { rows } = await ctx.tx.query<{ id: number }>(
          `select c.id from firmware_rollouts r join controllers c on c.id = r.controller_id and c.client_id = $2 where r.firmware_id = $1`, [before.id, ctx.clientId]);
        // (the catalogue refuses an empty list already; chosen controllers since deleted leave none here)
        if (!rows.length) throw new HttpError(409, 'Choose the controllers to roll it out to, and save, first.', [{ field: 'rolloutTo', message: 'choose at least one controller' }]);
        await ctx.tx.query(`update controllers set firmware_target = $2, firmware_sent_at = now(), firmware_started = false where id = any($1::int[])`,
          [rows.map((r) => Number(r.id)), before.version]);
      },
      audit: (before) => ({ before: null, after: { version: before.version, controllers: before.rolloutTo } }),
    },
  },
};
