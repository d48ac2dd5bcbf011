// Roles [0.3.6.x] (issue 11): per client. A role bundles privilege codes, each ticked for the whole reach of a
// grant or for one division (assigned by the named action `POST …/:id/assign-privileges` [0.3.6.4], never through
// the form). New clients start with copies of the template roles (migration 040).
import { API } from '../api';
import { PRIV } from '../privileges';
import { defineResource, number, text } from './define';

export const ROLE_CODE = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** One ticked privilege of a role: the code, and the division it is ticked in (null: wherever the grant reaches). */
export interface RolePrivilege {
  code: string;
  divisionId: number | null;
}

export const rolesResource = defineResource({
  name: 'roles',
  table: 'roles',
  api: API.roles,
  route: '/manage/roles',
  section: 'manage',
  label: { one: 'Role', many: 'Roles' },
  icon: 'shield',
  privileges: { view: PRIV.roles.view, add: PRIV.roles.add, edit: PRIV.roles.edit, delete: PRIV.roles.delete },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another role' }),
    code: text({
      max: 40,
      min: 2,
      required: true,
      pattern: ROLE_CODE,
      help: 'letters, digits and dashes',
      unique: 'tenant',
      uniqueMessage: 'is already the code of another role',
      search: true,
      sort: true,
    }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
    privilegeCount: number({ label: 'Privileges', readOnly: true, virtual: true }),
  },
  list: { title: ['name'], columns: ['code', 'privilegeCount', 'updatedAt'], sort: ['name', 'asc'] },
  form: [{ title: 'Role', description: 'Tick its privileges with Assign privileges once it is saved.', fields: ['name', 'code', 'description'] }],
  export: ['csv', 'ndjson'],
  screens: { rowLinks: [{ label: 'Assign privileges', route: '/manage/roles/assign-privileges/:id', icon: 'tick' }] },
});

// ---------- assigning privileges, the privileges screen, operators and operator settings ----------
import { array, defaulted, nullable, object, optional, size } from '../structs';
import { fill } from '../messages';
import { emailAddress, idInt, int32, requiredText, tooShortText, type Problem } from '../primitives';

/** POST `${API.roles}/:id/assign-privileges`: the role's whole set of ticks (replaces the previous one). */
export const AssignPrivilegesRequest = object({
  privileges: size(array(object({ code: requiredText(20), divisionId: nullable(idInt()) })), 0, 5000),
});
/** GET `${API.privileges}`: every code of the catalogue with the roles of the client holding it. */
export interface PrivilegeHolders {
  code: string;
  label: string;
  platform: boolean;
  roles: { id: number; name: string; divisionId: number | null }[];
}

/** POST `${API.operators}`: a new operator of the client, with an initial password that follows the policy. */
export const CreateOperatorRequest = object({
  username: requiredText(64, {
    min: 3,
    pattern: /^[A-Za-z0-9._@-]+$/,
    patternMessage: fill('username.allowedCharacters', 'may use letters, digits and . _ @ - only', {}),
  }),
  name: requiredText(200),
  email: optional(nullable(emailAddress())),
  password: requiredText(200),
});
export const ResetPasswordRequest = object({ password: requiredText(200) });

/** Operator settings [0.3.7.0], per client. */
// bounded whole numbers whose violations say the bound ("must be at least 6"), in the form and from the server
export const OperatorSettingsSchema = object({
  passwordMinLength: int32(6, 128),
  passwordClasses: int32(1, 4),
  passwordHistory: int32(0, 24),
  passwordExpiryDays: int32(0, 3650),
  lockoutAttempts: int32(1, 100),
  lockoutMinutes: int32(1, 10080),
  sessionLifetimeMinutes: int32(5, 43200),
  idleTimeoutMinutes: int32(0, 43200),
  /** Issue 49: who must use a second factor: 0 nobody, 1 administrators, 2 every operator (MFA_REQUIRED in contract/mfa.ts). */
  mfaRequired: defaulted(int32(0, 2), 0),
});
export type OperatorSettings = { [K in keyof typeof OperatorSettingsSchema.schema]: number };

/** What a password lacks under the policy (empty: it follows it). Shared by the forms and the server. */
export function passwordProblems(password: string, p: Pick<OperatorSettings, 'passwordMinLength' | 'passwordClasses'>): Problem[] {
  const out: Problem[] = [];
  if (password.length < p.passwordMinLength) out.push(tooShortText(p.passwordMinLength));
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < p.passwordClasses)
    out.push(fill('password.tooFewClasses', 'must mix at least {n} of: lower case, upper case, digits, symbols', { n: p.passwordClasses }));
  return out;
}
