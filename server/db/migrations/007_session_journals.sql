-- Session replay (issue 4, §9 "session replay rate 0.1"): the redacted event journals that sampled consoles upload
-- in the background. One row per recording (a console page's journal during one session: client, user and the
-- session's jti), its entries one row each, keyed by seq so a retried chunk adds nothing twice.
create table if not exists session_journals (
  id serial primary key,
  client_id int not null references clients(id),
  user_id int not null references users(id),
  jti text not null references sessions(jti),
  recording text not null unique,
  app text not null,
  started_at timestamptz not null,
  header jsonb not null,
  entries int not null default 0,
  bytes bigint not null default 0,
  first_seq int,
  last_seq int,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists session_journals_client on session_journals(client_id, updated_at desc, id desc);
create table if not exists session_journal_entries (
  journal_id int not null references session_journals(id) on delete cascade,
  seq int not null,
  line text not null,
  primary key (journal_id, seq)
);
