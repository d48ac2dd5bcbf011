-- Operators get a home client; sessions remember when they were last seen (operator-sessions screen);
-- controllers belong to a division like doors; the reset table is named for what it is: an outbox.
alter table users add column if not exists home_client_id int references clients(id);
alter table sessions add column if not exists last_seen_at timestamptz not null default now();
create index if not exists sessions_user on sessions(user_id, started_at desc);
alter table controllers add column if not exists division_id int references divisions(id);
alter table if exists password_resets rename to password_reset_outbox;
create table if not exists password_reset_outbox (token_hash text primary key, user_id int not null references users(id), expires_at timestamptz not null, used boolean not null default false);
alter table password_reset_outbox add column if not exists created_at timestamptz not null default now();
create index if not exists user_grants_user_client on user_grants(user_id, client_id);
create index if not exists identities_division on identities(client_id, division_id);
