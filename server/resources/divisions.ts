// Divisions (issue 12): the rules of the tree the declaration cannot say (contract/resources/divisions.ts).
// - a new division goes inside one the user may add in; left empty, directly under the top division;
// - a move (an edit of the parent) lands only inside a division the user may edit in, never inside the division
//   itself or one of its own; the top division stays at the top;
// - a division still in use is not deleted: the catalogue refuses what its declarations reference (identities,
//   doors, hardware, templates, divisions inside it), and this hook what lives outside the catalogue — operator
//   grants, operator-group grants and role ticks in that division — naming each with its count.
import type { Sentence, Violation } from '../../contract';
import { FIXED_SAID, PRIV, sentenceValue } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { divisionUses, divisionsOf } from '../db/queries/divisions';
import { subtree } from '../auth/access';
import { divisionsFor, fill, principal } from '../http/kit';

/** What still uses a division, "1 operator grant, 2 role privileges ticked", as sentences each with its count and
 *  word (issue 48): the console says each by its key, the word in its language, never splitting the English apart. */
function usesSaid(used: { what: string; n: number }[]): Sentence {
  return used.reduceRight<Sentence | null>((more, x) => {
    const one = { n: x.n, what: `${x.what}${x.n === 1 ? '' : 's'}` };
    return more ? fill('division.usesMore', '{n} {what}, {more}', { ...one, ...sentenceValue('more', more) }) : fill('division.uses', '{n} {what}', one);
  }, null)!;
}

export const divisionHooks: ResourceHooks = {
  async validate(ctx, input, before) {
    const tree = await divisionsOf(ctx.tx, ctx.clientId!);
    const top = tree.find((d) => d.parent_id === null);
    const parent = input.parentId as number | null | undefined;
    if (before && before.parentId === null) {
      return parent === null || parent === undefined
        ? []
        : [{ field: 'parentId', ...fill('division.topHasNoParent', 'must stay empty: the top division is inside no other', {}) }];
    }
    if (parent === null || parent === undefined) {
      if (!top) return [{ field: 'parentId', ...FIXED_SAID.required }];
      input.parentId = top.id;
    }
    const target = input.parentId as number;
    const out: Violation[] = [];
    if (before && subtree(tree, before.id).includes(target)) {
      out.push({ field: 'parentId', ...fill('division.isItselfOrInside', 'cannot be the division itself or one inside it', {}) });
    } else if (!before || target !== before.parentId) {
      const code = before ? PRIV.divisions.edit : PRIV.divisions.add;
      if (!divisionsFor(principal(ctx.req), [code]).includes(target))
        out.push({ field: 'parentId', message: before ? 'is not a division you may move divisions into' : 'is not a division you may add divisions in' });
    }
    return out;
  },
  async inUse(tx, ids) {
    const used = (await divisionUses(tx, ids)).filter((x) => x.n > 0);
    return used.length
      ? fill('division.stillUsedBy', 'Still used by {what} in this division: change or delete them first', sentenceValue('what', usesSaid(used)))
      : null;
  },
};
