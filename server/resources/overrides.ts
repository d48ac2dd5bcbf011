// Overrides (issue 12): the rules the declaration cannot say (contract/resources/overrides.ts).
// - `state` is computed from the window: scheduled, in force, ended;
// - while an override is in force its doors, mode and start are fixed (the doors it unlocked are the ones its end
//   locks again); its end may move — to now, to end it at once, or later;
// - an override moved to a new window after it ended starts again at its new start;
// - an override in force is not deleted (its doors would stay as it left them): end it first.
import type { ResourceHooks } from '../crud/hooks';
import { fill } from '../http/kit';
import { overrideInForce, rearmOverride } from '../db/queries/overrides';

type Before = { id: number; startsAt?: unknown; endsAt?: unknown; mode?: unknown; doorIds?: unknown };
const inForce = (b: Before, now: number) => Date.parse(String(b.startsAt)) <= now && now < Date.parse(String(b.endsAt));
const sameDoors = (a: unknown, b: unknown) =>
  JSON.stringify([...((a as number[]) ?? [])].sort((x, y) => x - y)) === JSON.stringify([...((b as number[]) ?? [])].sort((x, y) => x - y));

export const overrideHooks: ResourceHooks = {
  select: {
    state: `case when now() < t.starts_at then 'scheduled' when now() < t.ends_at then 'active' else 'ended' end`,
  },
  async validate(ctx, input, before) {
    if (!before) return [];
    const b = before as Before;
    const now = Date.now();
    if (inForce(b, now)) {
      const out = [];
      const fixed = fill('override.fixedWhileInForce', 'cannot change while the override is in force: end it, then make a new one', {});
      if (input.mode !== undefined && input.mode !== b.mode) out.push({ field: 'mode', ...fixed });
      if (input.doorIds !== undefined && !sameDoors(input.doorIds, b.doorIds)) out.push({ field: 'doorIds', ...fixed });
      if (typeof input.startsAt === 'string' && Date.parse(input.startsAt) !== Date.parse(String(b.startsAt))) out.push({ field: 'startsAt', ...fixed });
      // ending it now: the end may not be before now (what already happened stays as it happened)
      if (typeof input.endsAt === 'string' && Date.parse(input.endsAt) < now - 60_000)
        out.push({ field: 'endsAt', ...fill('override.endNotInPast', 'cannot be in the past while the override is in force: now at the earliest', {}) });
      return out;
    }
    // not in force: a new window in the future starts (and ends) afresh
    if (typeof input.endsAt === 'string' && Date.parse(input.endsAt) > now) {
      await rearmOverride(ctx.tx, b.id);
    }
    return [];
  },
  async inUse(tx, ids) {
    const held = await overrideInForce(tx, ids);
    return held ? fill('override.inForce', '{name} is in force: set its end to now first, and its doors go back to their own mode', { name: held.name }) : null;
  },
};
