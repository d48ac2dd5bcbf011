// SQL of a catalogue resource, built from its declaration: the select list (columns named as the fields, dates as
// text, a reference's title joined, a hook's expressions), the scope, search, filters, sort and the writes. Only
// declared names ever reach SQL; values are always parameters.
import { columnOf, resourceByName, type AnyField, type Fields, type ResourceDeclaration } from '../../contract';
import { tenant } from '../db/tenant';
import type { ResourceHooks } from './hooks';

export type { Scope } from './scope';
import type { Scope } from './scope';

const q = (s: string) => `"${s}"`;
const joinAlias = (k: string) => `j_${k}`;

export class ResourceSql {
  readonly fields: [string, AnyField][];
  constructor(
    readonly r: ResourceDeclaration<any>,
    readonly hooks: ResourceHooks = {},
  ) {
    this.fields = Object.entries(r.fields as Fields);
  }

  get table() {
    return this.r.table;
  }
  field(name: string): AnyField {
    return (this.r.fields as Fields)[name];
  }
  /** Columns the table itself holds for the declaration's scalar fields. */
  scalarFields() {
    return this.fields.filter(([, f]) => !f.virtual && f.kind !== 'children' && f.kind !== 'refs');
  }
  writableFields() {
    return this.scalarFields().filter(([, f]) => !f.readOnly);
  }

  titleColumnOf(target: ResourceDeclaration<any>) {
    const first = target.list.title[0];
    return columnOf(first, (target.fields as Fields)[first]);
  }

  /** The expression a field is read (and sorted) by. */
  expr(name: string): string {
    if (name === 'id') return 't.id';
    if (name === 'createdAt') return 't.created_at';
    if (name === 'updatedAt') return 't.updated_at';
    const f = this.field(name);
    if (f.virtual && f.from) {
      // the referenced row's title as its list shows it: "Davies, Aisha" for a title of two fields
      const target = resourceByName(this.field(f.from).target!)!;
      const alias = joinAlias(f.from);
      if (target.list.title.length === 1) return `${alias}.${this.titleColumnOf(target)}`;
      return `nullif(concat_ws(', ', ${target.list.title.map((k) => `${alias}.${columnOf(k, (target.fields as Fields)[k])}`).join(', ')}), '')`;
    }
    if (f.virtual) return this.hooks.select?.[name] ?? 'null';
    return `t.${columnOf(name, f)}`;
  }

  select(forList: boolean): string {
    const cols = ['t.id'];
    if (this.r.scope.tenant === true) cols.push(`t.client_id as ${q('clientId')}`);
    for (const [k, f] of this.fields) {
      if (f.kind === 'children' || f.kind === 'refs' || f.writeOnly) continue;
      if (forList && f.inList === false) {
        cols.push(`null as ${q(k)}`);
        continue;
      }
      const e = this.expr(k);
      cols.push(f.kind === 'date' ? `${e}::text as ${q(k)}` : `${e} as ${q(k)}`);
    }
    if (this.r.timestamps) cols.push(`t.created_at as ${q('createdAt')}`, `t.updated_at as ${q('updatedAt')}`);
    if (this.r.extensible) cols.push(`t.udf as ${q('udf')}`);
    return cols.join(', ');
  }

  /** The table and the joins virtual fields are read through; with `usedBy` (the SQL the FROM serves), only the
   *  joins that SQL names (a left join to a row per row changes no row, but can change the plan: a search's window
   *  walk over the sort order's index took 60–80 ms instead of 15 with a join it did not use). */
  from(usedBy?: string): string {
    let s = `${this.table} t`;
    for (const [, f] of this.fields) {
      if (!f.virtual || !f.from) continue;
      const alias = joinAlias(f.from);
      if (usedBy !== undefined && !usedBy.includes(`${alias}.`)) continue;
      const refField = this.field(f.from);
      const target = resourceByName(refField.target!)!;
      s += ` left join ${target.table} ${alias} on ${alias}.id = t.${columnOf(f.from, refField)}`;
    }
    return s;
  }

  /** The scope as a WHERE clause, pushing its parameters. */
  scopeWhere(scope: Scope, params: unknown[]): string {
    const parts: string[] = [];
    if (this.r.scope.tenant === true) parts.push(tenant(params, scope.clientId, 't'));
    else if (this.r.scope.tenant === 'self') {
      params.push(scope.tenants ?? []);
      parts.push(`t.id = any($${params.length}::int[])`);
    }
    if (this.r.scope.division) {
      params.push(scope.divisions ?? []);
      const d = this.r.scope.division;
      parts.push(`t.${d === 'id' ? 'id' : columnOf(d, this.field(d))} = any($${params.length}::int[])`);
    }
    if (scope.rowValues) {
      params.push(scope.rowValues.values);
      parts.push(`t.${scope.rowValues.column} = any($${params.length}::text[])`);
    }
    for (const b of scope.bound ?? []) parts.push(b(params));
    return parts.length ? parts.join(' and ') : 'true'; // a platform row: the installation's, no one client's
  }

  /** The `%q%` pattern of a q search. */
  static pattern(text: string) {
    return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }

  /**
   * The q search over the row's own searchable columns (each trigram-indexed, so PostgreSQL ORs the index scans
   * into one bitmap), plus rows a hook finds through another table (an identity's credential numbers): `via` is
   * those ids when the plugin looked them up first (a constant list the planner indexes and hashes); without them
   * (too many to list, or not looked up) a subquery.
   */
  searchWhere(text: string, params: unknown[], via?: number[] | null): string {
    params.push(ResourceSql.pattern(text));
    const n = `$${params.length}`;
    const ors = this.hooks.searchAll ? [this.hooks.searchAll(n)] : this.fields.filter(([, f]) => f.search).map(([k]) => `${this.expr(k)} ilike ${n}`);
    if (this.hooks.search) ors.push(this.hooks.search(n));
    // user-defined field values are searched too (a trigram index over udf::text, migration 060)
    if (this.r.extensible) ors.push(`t.udf::text ilike ${n}`);
    if (this.hooks.searchIds) {
      if (via) {
        params.push(via);
        ors.push(`t.id = any($${params.length}::int[])`);
      } else ors.push(`t.id in (${this.hooks.searchIds(n)})`);
    }
    // nothing declared searchable: the row's title as the list shows it (its text fields), which is what a person types
    // in the list's search box; with none of those, no row matches. (Was `true` with the text still sent: PostgreSQL
    // refused the statement, a bind of two parameters for one, and the search box of Interface settings answered 503.)
    if (!ors.length) ors.push(...this.titleText().map((k) => `${this.expr(k)} ilike ${n}`));
    if (ors.length) return `(${ors.join(' or ')})`;
    params.pop();
    return 'false';
  }

  /** The list title's stored text fields. */
  private titleText(): string[] {
    const fields = new Map(this.fields);
    return this.r.list.title.filter((k) => {
      const f = fields.get(k);
      return !!f && !f.virtual && (f.kind === 'text' || f.kind === 'email');
    });
  }

  filterWhere(name: string, value: unknown, params: unknown[], op: '=' | '>=' | '<=' = '='): string {
    params.push(value);
    const f = this.field(name);
    return `${this.expr(name)} ${op} $${params.length}${f.kind === 'date' ? '::date' : ''}`;
  }
}
