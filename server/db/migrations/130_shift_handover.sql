-- Issue 31, the shift handover: the shift settings singleton (contract/resources/shiftSettings.ts), one row per
-- client made with the default boundaries when first read; and the acknowledged handovers, one per client and shift
-- end, with who acknowledged it, when, the note left for the next shift and the digest as it was acknowledged
-- (server/http/handover.ts). Viewing the handover [0.2.6.0] goes to the roles that view the alarms [0.2.1.0],
-- acknowledging it [0.2.6.1] to those that act on alarms [0.2.1.1], the boundaries [0.2.6.2] to the roles that may
-- assign privileges to roles [0.3.6.4] (administrators). New installations get them from the seed's roles.
create table if not exists shift_settings (
  id serial primary key, client_id int not null unique references clients(id),
  boundaries text not null default '07:00, 15:00, 23:00',
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create table if not exists shift_handovers (
  id serial primary key, client_id int not null references clients(id),
  shift_start timestamptz not null, shift_end timestamptz not null,
  acknowledged_by text not null, acknowledged_at timestamptz not null default now(),
  note text check (note is null or char_length(note) <= 1000),
  digest jsonb not null,
  unique (client_id, shift_end)
);
insert into role_privileges (role_code, privilege) select role_code, '0.2.6.0' from role_privileges where privilege = '0.2.1.0' on conflict do nothing;
insert into role_privileges (role_code, privilege) select role_code, '0.2.6.1' from role_privileges where privilege = '0.2.1.1' on conflict do nothing;
insert into role_privileges (role_code, privilege) select role_code, '0.2.6.2' from role_privileges where privilege = '0.3.6.4' on conflict do nothing;
