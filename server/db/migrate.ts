// Numbered, idempotent migrations (server/db/migrations/NNN_name.sql), applied in order, each in its own
// transaction, and recorded in schema_migrations so a restart applies only the new ones.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db';

const DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = DIR): Migration[] {
  return readdirSync(dir)
    .map((f) => /^(\d{3})_([\w-]+)\.sql$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ id: Number(m[1]), name: m[2], sql: readFileSync(dir + m[0], 'utf8') }))
    .sort((a, b) => a.id - b.id);
}

/** Applies the migrations not yet recorded; returns the ids it applied. */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<number[]> {
  await db.exec('create table if not exists schema_migrations (id int primary key, name text not null, at timestamptz not null default now())');
  const { rows } = await db.query<{ id: number }>('select id from schema_migrations');
  const done = new Set(rows.map((r) => Number(r.id)));
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('insert into schema_migrations (id, name) values ($1, $2) on conflict (id) do nothing', [m.id, m.name]);
    });
    applied.push(m.id);
  }
  return applied;
}
