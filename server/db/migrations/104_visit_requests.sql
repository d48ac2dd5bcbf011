-- Visit requests [1.4.x] (contract/resources/visitRequests.ts): a host asks for a visitor on a day; approving one
-- registers the visitor (visitor_id), declining one keeps the reason. Never edited or deleted afterwards.
create table if not exists visit_requests (
  id serial primary key, client_id int not null references clients(id),
  first_name text not null, last_name text not null, company text, email text, phone text,
  host_name text not null, host_id int references identities(id), visit_type_id int references visit_types(id),
  purpose text not null default 'meeting', visit_date date not null, note text,
  status text not null default 'pending' check (status in ('pending', 'approved', 'declined')),
  requested_by int references users(id), decided_by int references users(id), decided_at timestamptz, decision_note text,
  visitor_id int references visitors(id),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()
);
create index if not exists visit_requests_client_date on visit_requests(client_id, visit_date, id);
create index if not exists visit_requests_client_status on visit_requests(client_id, status, visit_date);
