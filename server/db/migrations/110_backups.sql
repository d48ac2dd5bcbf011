-- Backup and restore (contract/backups.ts): the auto-backup settings, one row for the whole installation (a platform
-- catalogue singleton, id 1), and the platform operator's two new platform privileges in a database seeded before
-- them (0.7.2.0 backup and restore, 0.7.2.1 auto-backup settings; a fresh one gets them from the seed's role).
create table if not exists auto_backup_settings (
  id int primary key check (id = 1),
  enabled boolean not null default false,
  frequency text not null default 'daily' check (frequency in ('daily', 'weekly')),
  weekday text not null default '0' check (weekday in ('0', '1', '2', '3', '4', '5', '6')),
  hour int not null default 2 check (hour between 0 and 23),
  keep int not null default 7 check (keep between 1 and 100),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
insert into role_template_privileges (code, privilege)
  select code, p from role_templates, unnest(array['0.7.2.0', '0.7.2.1']) as p where code = 'platform-operator'
  on conflict do nothing;
