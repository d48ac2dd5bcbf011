-- User-defined fields (issue 11) [0.3.4.x]: per tenant, typed, required or not. Their values live on the identity
-- in one jsonb object keyed by the field's key: a field added or dropped needs no DDL, a row is read and written
-- whole with the identity (one row, one transaction, one audit before/after), and search reads it with the rest.
create table if not exists user_fields (
  id serial primary key, client_id int not null references clients(id),
  key text not null, label text not null, kind text not null, required boolean not null default false,
  max_length int, options text, position int,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  unique (client_id, key));
alter table identities add column if not exists udf jsonb not null default '{}'::jsonb;
create index if not exists identities_udf_trgm on identities using gin ((udf::text) gin_trgm_ops);
