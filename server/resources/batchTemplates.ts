// Batch templates on the server, beyond the declaration: a template names the employee number column (re-runs
// match on it), a user-defined field column names one of the tenant's fields, and no header or target twice.
import { fill, type Violation } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { userFieldDefs } from './userFields';

export const batchTemplateHooks: ResourceHooks = {
  async validate(ctx, input) {
    const out: Violation[] = [];
    const cols = (input.columns as { header: string; target: string; udfKey?: string | null }[] | undefined) ?? [];
    if (!cols.some((c) => c.target === 'employeeNo'))
      out.push({ field: 'columns', ...fill('batchTemplate.employeeNoUnmapped', 'must map a column to Employee no. (re-uploads match on it)', {}) });
    const keys = ctx.clientId === null ? [] : (await userFieldDefs(ctx.tx, ctx.clientId)).map((d) => d.key);
    const headers = new Set<string>();
    const targets = new Set<string>();
    cols.forEach((c, i) => {
      const h = c.header.trim().toLowerCase();
      if (headers.has(h)) out.push({ field: `columns.${i}.header`, ...fill('batchTemplate.headerRepeated', 'is repeated in this template', {}) });
      headers.add(h);
      const t = c.target === 'udf' ? `udf.${c.udfKey ?? ''}` : c.target;
      if (c.target === 'udf' && !keys.includes(c.udfKey ?? ''))
        out.push({ field: `columns.${i}.udfKey`, ...fill('batchTemplate.notUserField', 'must be the key of one of this client’s user-defined fields', {}) });
      else if (targets.has(t)) out.push({ field: `columns.${i}.target`, ...fill('batchTemplate.targetTaken', 'is filled by another column already', {}) });
      targets.add(t);
    });
    return out;
  },
};
