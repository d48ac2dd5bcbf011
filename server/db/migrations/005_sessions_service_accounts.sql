-- Operator and service-account sessions (issue 4, Monitor: /monitor/operator-sessions, /monitor/service-account-sessions).
-- Users are operators (people at the console) or service accounts (integrations such as a door-sync job); a
-- service account never signs in through the console's form. Sessions get a numeric id for the list screens
-- (the jti stays the key the tokens carry), the client the token was issued for (null: no client selected yet),
-- and who ended one from the sessions screen (null when its owner signed out or it was replaced).
alter table users add column if not exists kind text not null default 'operator' check (kind in ('operator', 'service'));
alter table sessions add column if not exists id bigserial;
create unique index if not exists sessions_id on sessions(id);
alter table sessions add column if not exists client_id int references clients(id);
alter table sessions add column if not exists ended_by text;
create index if not exists sessions_started on sessions(started_at desc, id desc);
