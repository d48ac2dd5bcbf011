// Does the database hold what a declaration says? Columns and their types, nullability, the tenant column, unique
// indexes, foreign keys of references, join tables and child tables — read from information_schema and pg_catalog.
// Migrations stay explicit SQL; this is what keeps them and the declarations from drifting apart.
import { columnOf, type AnyField, type Fields, type ResourceDeclaration } from '../../contract';
import type { Db } from '../db/db';

const TYPES: Record<AnyField['kind'], string | null> = {
  text: 'text',
  email: 'text',
  choice: 'text',
  timezone: 'text',
  image: 'text',
  file: 'text',
  number: 'integer',
  ref: 'integer',
  date: 'date',
  datetime: 'timestamp with time zone',
  timestamp: 'timestamp with time zone',
  switch: 'boolean',
  refs: null,
  children: null,
};

interface Column {
  data_type: string;
  is_nullable: 'YES' | 'NO';
}

async function columns(db: Db, table: string): Promise<Map<string, Column>> {
  const { rows } = await db.query<Column & { column_name: string }>(
    `select column_name, data_type, is_nullable from information_schema.columns where table_schema = current_schema() and table_name = $1`,
    [table],
  );
  return new Map(rows.map((r) => [r.column_name, r]));
}
async function uniqueIndexes(db: Db, table: string): Promise<string[][]> {
  const { rows } = await db.query<{ cols: string[] }>(
    `select array(select a.attname::text from unnest(ix.indkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = t.oid and a.attnum = k.n order by k.o) cols
       from pg_index ix join pg_class t on t.oid = ix.indrelid join pg_namespace s on s.oid = t.relnamespace
      where t.relname = $1 and s.nspname = current_schema() and ix.indisunique`,
    [table],
  );
  return rows.map((r) => [...r.cols].sort());
}
async function foreignKeys(db: Db, table: string): Promise<{ column: string; target: string }[]> {
  const { rows } = await db.query<{ column_name: string; target: string }>(
    `select kcu.column_name, ccu.table_name as target
       from information_schema.table_constraints tc
       join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
       join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_name = $1 and tc.table_schema = current_schema()`,
    [table],
  );
  return rows.map((r) => ({ column: r.column_name, target: r.target }));
}

/** Every difference between the declaration and the database, as sentences (empty: none). */
export async function driftOf(db: Db, r: ResourceDeclaration<any>, targets: (name: string) => ResourceDeclaration<any> | undefined): Promise<string[]> {
  const out: string[] = [];
  async function table(name: string, fields: Fields, tenant: boolean, timestamps: boolean, where: string, extensible = false) {
    const cols = await columns(db, name);
    if (!cols.size) {
      out.push(`${where}: table ${name} is missing`);
      return;
    }
    // a view (tenant_operators) reports every column nullable: its tables' constraints hold for it
    const view = (await db.query(`select 1 from information_schema.views where table_schema = current_schema() and table_name = $1`, [name])).rows.length > 0;
    const uniques = await uniqueIndexes(db, name);
    const fks = await foreignKeys(db, name);
    const expect = (col: string, type: string, notNull: boolean | null, what: string) => {
      const c = cols.get(col);
      if (!c) {
        out.push(`${where}: ${what} has no column ${name}.${col}`);
        return;
      }
      if (c.data_type !== type) out.push(`${where}: ${what} is ${type} but ${name}.${col} is ${c.data_type}`);
      if (notNull !== null && !view && (c.is_nullable === 'NO') !== notNull)
        out.push(`${where}: ${what} is ${notNull ? 'required' : 'optional'} but ${name}.${col} is ${c.is_nullable === 'NO' ? 'not null' : 'nullable'}`);
    };
    if (tenant) expect('client_id', 'integer', true, 'the tenant scope');
    if (timestamps) {
      expect('created_at', 'timestamp with time zone', true, 'createdAt');
      expect('updated_at', 'timestamp with time zone', true, 'updatedAt');
    }
    if (extensible) expect('udf', 'jsonb', true, 'the user-defined fields (extensible)');
    for (const [k, f] of Object.entries(fields)) {
      if (f.virtual) continue;
      const col = columnOf(k, f);
      if (f.kind === 'refs') {
        const t = f.through!;
        const jc = await columns(db, t.table);
        if (!jc.has(t.from) || !jc.has(t.to)) out.push(`${where}: ${k} needs join table ${t.table}(${t.from}, ${t.to})`);
        continue;
      }
      if (f.kind === 'children') {
        const c = f.children!;
        const cc = await columns(db, c.table);
        if (!cc.has(c.parent)) out.push(`${where}: ${k} needs ${c.table}.${c.parent}`);
        const cfks = await foreignKeys(db, c.table);
        if (!cfks.some((x) => x.column === c.parent && x.target === name)) out.push(`${where}: ${c.table}.${c.parent} is not a foreign key to ${name}`);
        await table(c.table, c.fields, tenant, false, `${where}.${k}`);
        continue;
      }
      expect(col, TYPES[f.kind]!, f.required, k);
      if (f.unique) {
        const want = (f.unique === 'tenant' && tenant ? ['client_id', col] : [col]).sort();
        if (!uniques.some((u) => u.join() === want.join()))
          out.push(`${where}: ${k} is unique per ${f.unique} but ${name} has no unique index on (${want.join(', ')})`);
      }
      if (f.kind === 'ref') {
        const target = targets(f.target!);
        if (!target) out.push(`${where}: ${k} refers to an undeclared resource ${f.target}`);
        else if (!fks.some((x) => x.column === col && x.target === target.table)) out.push(`${where}: ${name}.${col} is not a foreign key to ${target.table}`);
      }
    }
  }
  await table(r.table, r.fields as Fields, r.scope.tenant === true, !!r.timestamps, r.name, !!r.extensible);
  return out;
}
