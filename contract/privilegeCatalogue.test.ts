// A resource's privilege codes come from its declaration when the specification's list does not name them (issue 48:
// a new resource needs no line in contract/privileges.ts), labelled as the list's own are.
import { describe, expect, it } from 'vitest';
import { CATALOGUE, PRIVILEGES, PRIVILEGE_CODES, SPEC_PRIVILEGES, declaredPrivileges } from './index';
import { BINS } from '../model-tests/madeUpResource';

// the made-up resource with a label of two words (lower-cased in the entries), no edit code, and a read code (no entry)
const bins = {
  ...BINS,
  label: { one: 'Bin', many: 'Lost-property Bins' },
  privileges: { view: '0.4.99.0', add: '0.4.99.1', delete: '0.4.99.3', read: ['0.4.99.9'] },
};

describe('the privilege catalogue', () => {
  it("gives a resource's view/add/edit/delete codes the list does not name their entries, in order", () => {
    expect(declaredPrivileges([bins], SPEC_PRIVILEGES)).toEqual([
      { code: '0.4.99.0', label: 'View lost-property bins' },
      { code: '0.4.99.1', label: 'Add lost-property bins' },
      { code: '0.4.99.3', label: 'Delete lost-property bins' },
    ]);
  });
  it("keeps the specification's own label for a code it names, and gives each code once", () => {
    const sharing = { ...bins, privileges: { view: '0.3.2.0', add: '0.4.99.1', edit: '0.4.99.1' } };
    expect(declaredPrivileges([sharing, bins], SPEC_PRIVILEGES).map((p) => p.code)).toEqual(['0.4.99.1', '0.4.99.0', '0.4.99.3']);
    expect(PRIVILEGES.find((p) => p.code === '0.3.2.0')?.label).toBe('View licenses');
  });
  it('holds every code of every catalogue resource, each once', () => {
    const codes = PRIVILEGES.map((p) => p.code);
    expect(codes.filter((c, i) => codes.indexOf(c) !== i)).toEqual([]);
    const missing = CATALOGUE.flatMap((r) =>
      [r.privileges.view, r.privileges.add, r.privileges.edit, r.privileges.delete].filter((c): c is string => !!c && !PRIVILEGE_CODES.has(c)),
    );
    expect(missing).toEqual([]);
    expect(PRIVILEGES.slice(0, SPEC_PRIVILEGES.length)).toEqual(SPEC_PRIVILEGES);
  });
});
