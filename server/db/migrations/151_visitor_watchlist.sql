-- The visitor watchlist (issue 50; contract/resources/visitorWatchlist.ts) and its matches: each registration or visit
-- request that matched an entry (how: document, name, similar-name), the entry's name and reason as they stood, the
-- alarm event it raised, and the front desk's decision (open until someone lets the visitor in or refuses them).
create table if not exists visitor_watchlist (
  id serial primary key, client_id int not null references clients(id),
  full_name text not null, kind text not null default 'deny' check (kind in ('deny', 'watch')),
  date_of_birth date, document_number text, photo text, reason text not null, until date,
  added_by int references users(id),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create index if not exists visitor_watchlist_client on visitor_watchlist(client_id, id);
create table if not exists visitor_watchlist_matches (
  id serial primary key, client_id int not null references clients(id),
  entry_id int references visitor_watchlist(id) on delete set null,
  visitor_id int references visitors(id) on delete cascade,
  visit_request_id int references visit_requests(id) on delete cascade,
  matched_on text not null check (matched_on in ('document', 'name', 'similar-name')),
  entry_name text not null, entry_kind text not null, reason text not null,
  state text not null default 'open' check (state in ('open', 'admitted', 'refused')),
  decided_by int references users(id), decided_at timestamptz, decision_note text,
  alarm_event_id bigint,
  created_at timestamptz not null default now()
);
create index if not exists visitor_watchlist_matches_visitor on visitor_watchlist_matches(visitor_id) where visitor_id is not null;
create index if not exists visitor_watchlist_matches_request on visitor_watchlist_matches(visit_request_id) where visit_request_id is not null;
create index if not exists visitor_watchlist_matches_client on visitor_watchlist_matches(client_id, id);

-- who may register visitors keeps the watchlist and decides its matches (the seed's roles: receptionist, administrator)
-- (each client's role by its id, over the same divisions; and the templates new clients copy)
insert into role_privileges (role_id, role_code, privilege, division_id)
  select r.role_id, r.role_code, p.code, r.division_id from role_privileges r
  cross join (values ('1.5.0'), ('1.5.1'), ('1.5.2'), ('1.5.3'), ('1.5.4')) as p(code) where r.privilege = '1.0.1' on conflict do nothing;
insert into role_template_privileges (code, privilege)
  select t.code, p.code from role_template_privileges t
  cross join (values ('1.5.0'), ('1.5.1'), ('1.5.2'), ('1.5.3'), ('1.5.4')) as p(code) where t.privilege = '1.0.1' on conflict do nothing;
