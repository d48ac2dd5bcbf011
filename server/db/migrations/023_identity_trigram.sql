-- The identity list's q (name, employee number, e-mail, credential number) is a substring search: with trigram
-- indexes it is an index scan instead of reading every identity of the client (issue 13). The expression is the
-- one server/db/queries/identities.ts searches.
create extension if not exists pg_trgm;
create index if not exists identities_search_trgm on identities
  using gin ((first_name || ' ' || last_name || ' ' || employee_no || ' ' || coalesce(email, '')) gin_trgm_ops);
create index if not exists credentials_number_trgm on credentials using gin (number gin_trgm_ops);
