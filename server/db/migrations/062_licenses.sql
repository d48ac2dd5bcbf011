-- Licenses (issue 11) [0.3.2.0 view, 0.3.2.2 edit]: one per tenant, the signed key as issued and what it grants,
-- kept as the server verified it (Ed25519, server/resources/licenses.ts). A tenant without a license row has no
-- seat limits (a fresh development database); the seed installs the demo license for the demo tenants.
create table if not exists licenses (
  id serial primary key, client_id int not null unique references clients(id),
  license_key text not null, licensee text not null, modules text not null,
  identity_seats int not null, door_seats int not null, reader_seats int not null, operator_seats int not null,
  valid_to date not null,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now());
