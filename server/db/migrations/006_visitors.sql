-- Visitors (issue 5): one row per registration at the front desk — who came (name, ID number and photo, from
-- the identity card or typed), whom they visit, for what, until when — and what happened to the visit:
-- expected → on site → left, and when a badge was printed for it.
create table if not exists visitors (
  id serial primary key,
  client_id int not null references clients(id),
  first_name text not null,
  last_name text not null,
  id_number text,
  company text,
  email text,
  phone text,
  photo text,
  host_name text not null,
  purpose text,
  visit_date date not null,
  valid_until timestamptz not null,
  status text not null default 'expected' check (status in ('expected', 'on-site', 'left')),
  badge_printed_at timestamptz,
  created_by int references users(id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists visitors_client_date on visitors(client_id, visit_date desc, id desc);
create index if not exists visitors_client_name on visitors(client_id, last_name, first_name, id);
