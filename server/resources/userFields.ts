// User-defined fields on the server, beyond the declaration: a choice field names its choices, a max length is for
// text only; and the tenant's fields as the identity checks read them.
import { choicesOf, fill } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';

export { userFieldDefs } from '../db/queries/userFields';

export const userFieldHooks: ResourceHooks = {
  async validate(_ctx, input) {
    const out = [];
    if (input.kind === 'choice') {
      const choices = choicesOf({ options: (input.options as string | null) ?? null });
      if (!choices.length) out.push({ field: 'options', ...fill('userField.noChoices', 'must list at least one choice (one per line)', {}) });
      else if (choices.some((c) => c.length > 200))
        out.push({ field: 'options', ...fill('userField.choiceTooLong', 'must be choices of at most {max} characters', { max: 200 }) });
      else if (new Set(choices).size !== choices.length) out.push({ field: 'options', ...fill('userField.choiceRepeated', 'must not repeat a choice', {}) });
    }
    if (input.maxLength !== undefined && input.maxLength !== null && input.kind !== 'text')
      out.push({ field: 'maxLength', ...fill('userField.maxLengthTextOnly', 'applies to text fields only', {}) });
    return out;
  },
};
