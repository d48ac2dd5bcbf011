// An `extensible` resource's user-defined fields (its `udf` object): the wire shape, a tenant's field as declared, and
// the values checked against the fields, for the form and the server alike (moved from ./derive.ts, which re-exports it).
import { define } from '../structs';
import { FIXED_SAID, tooLongText } from '../primitives';
import { fill } from '../messages';
import type { Violation } from '../violation';

// ---------- user-defined fields (an `extensible` resource's `udf` object) ----------
/** The shape of a `udf` object on the wire: keys are field keys, values text, numbers or null (checked per field below). */
// (each problem a sentence with its key, issue 48: a form and a refusal carry it, the console says it by the key)
export const UDF_VALUES = define<Record<string, string | number | null>>('udf', (v) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return fill('udf.notObject', 'must be an object of user-defined field values', {});
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > 200) return fill('udf.tooMany', 'has too many user-defined fields', {});
  for (const [k, x] of entries) {
    const key = k.slice(0, 40);
    if (k.length > 40 || !/^[A-Za-z][A-Za-z0-9_-]*$/.test(k)) return fill('udf.notFieldKey', 'has a key that is not a field key: {key}', { key });
    if (x !== null && typeof x !== 'string' && typeof x !== 'number') return fill('udf.notTextOrNumber', '{key} must be text or a number', { key });
    if (typeof x === 'string' && x.length > 2000) return fill('udf.valueTooLong', '{key} is too long', { key });
  }
  return true;
});

/** One user-defined field as the tenant declared it (a user_fields row). */
export interface UserFieldDef {
  key: string;
  label: string;
  kind: 'text' | 'number' | 'date' | 'choice';
  required: boolean;
  maxLength: number | null;
  options: string | null;
  position?: number;
}
export const choicesOf = (d: Pick<UserFieldDef, 'options'>) =>
  (d.options ?? '')
    .split(/\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The values of a `udf` object against the tenant's fields (form and server): required, type, choice membership,
 * bounds; unknown keys refused. Violations name the field `udf.<key>`. Returns the cleaned object (empty → absent,
 * numbers typed as text become numbers).
 */
export function checkUserFieldValues(
  defs: readonly UserFieldDef[],
  values: Record<string, unknown> | null | undefined,
): { violations: Violation[]; value: Record<string, string | number> } {
  const violations: Violation[] = [];
  const value: Record<string, string | number> = {};
  const known = new Map(defs.map((d) => [d.key, d]));
  for (const k of Object.keys(values ?? {}))
    if (!known.has(k)) violations.push({ field: `udf.${k}`, ...fill('udf.notOfClient', 'is not a user-defined field of this client', {}) });
  for (const d of defs) {
    const field = `udf.${d.key}`;
    let x = values?.[d.key];
    if (typeof x === 'string') x = x.trim();
    if (x === undefined || x === null || x === '') {
      if (d.required) violations.push({ field, ...FIXED_SAID.required });
      continue;
    }
    switch (d.kind) {
      case 'number': {
        const n = typeof x === 'number' ? x : Number(x);
        if (!Number.isFinite(n) || (typeof x === 'string' && !/^-?\d+(\.\d+)?$/.test(x))) {
          violations.push({ field, ...FIXED_SAID.notNumber });
          continue;
        }
        if (Math.abs(n) > 1e12) {
          violations.push({ field, ...fill('udf.outOfRange', 'is out of range', {}) });
          continue;
        }
        value[d.key] = n;
        break;
      }
      case 'date': {
        const s = String(x);
        if (!DATE_RE.test(s) || Number.isNaN(Date.parse(`${s}T00:00:00Z`)) || new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) !== s) {
          violations.push({ field, ...FIXED_SAID.notDate });
          continue;
        }
        value[d.key] = s;
        break;
      }
      case 'choice': {
        const s = String(x);
        if (!choicesOf(d).includes(s)) {
          violations.push({ field, ...fill('udf.notOneOf', 'must be one of {choices}', { choices: choicesOf(d).join(', ') }) });
          continue;
        }
        value[d.key] = s;
        break;
      }
      default: {
        const s = String(x);
        const max = d.maxLength ?? 2000;
        if (s.length > max) {
          violations.push({ field, ...tooLongText(max) });
          continue;
        }
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s)) {
          violations.push({ field, ...FIXED_SAID.controlCharacters });
          continue;
        }
        value[d.key] = s;
      }
    }
  }
  return { violations, value };
}
