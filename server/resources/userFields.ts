// User-defined fields on the server, beyond the declaration: a choice field names its choices, a max length is for
// text only; and the tenant's fields as the identity checks read them.
import { choicesOf } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';

export { userFieldDefs } from '../db/queries/userFields';

export const userFieldHooks: ResourceHooks = {
  async validate(_ctx, input) {
    const out = [];
    if (input.kind === 'choice') {
      const choices = choicesOf({ options: (input.options as string | null) ?? null });
      if (!choices.length) out.push({ field: 'options', message: 'must list at least one choice (one per line)' });
      else if (choices.some((c) => c.length > 200)) out.push({ field: 'options', message: 'must be choices of at most 200 characters' });
      else if (new Set(choices).size !== choices.length) out.push({ field: 'options', message: 'must not repeat a choice' });
    }
    if (input.maxLength !== undefined && input.maxLength !== null && input.kind !== 'text')
      out.push({ field: 'maxLength', message: 'applies to text fields only' });
    return out;
  },
};
