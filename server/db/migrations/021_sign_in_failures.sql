-- Failed sign-ins of usernames without an account, counted and locked like a user's (issue 13: a locked real user
-- answered 423 at once while an unknown name answered 401 for ever, which told which usernames exist).
create table if not exists sign_in_failures (
  username text primary key,
  failed_attempts int not null default 0,
  locked_until timestamptz,
  updated_at timestamptz not null default now()
);
create index if not exists sign_in_failures_updated on sign_in_failures (updated_at);
