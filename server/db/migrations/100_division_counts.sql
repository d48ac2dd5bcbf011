-- The dashboard's identity and active-credential counts (issue 13), kept exact as rows change instead of counted
-- on every dashboard (0.3–0.9 s at 200,000 identities). One row per client and division: its identities, and the
-- active credentials of its identities (a credential counts in its own client, in its identity's division: what
-- server/db/queries/dashboard.ts counted). Statement triggers with transition tables add each statement's change in
-- one upsert per division, in the same transaction, so a rolled-back write never counts. On PostgreSQL a writer
-- holds its divisions' rows until it commits: writes of identities and credentials in the same division queue
-- behind each other at the counter (they are short; a batch upload writes in slices).
create table if not exists division_counts (
  client_id int not null,
  division_id int not null,
  identities bigint not null default 0,
  active_credentials bigint not null default 0,
  primary key (client_id, division_id)
);

create or replace function division_counts_add(deltas jsonb) returns void language sql as $$
  insert into division_counts as d (client_id, division_id, identities, active_credentials)
  select (x->>'c')::int, (x->>'d')::int, sum((x->>'i')::bigint), sum((x->>'a')::bigint)
    from jsonb_array_elements(deltas) x group by 1, 2 order by 1, 2
  on conflict (client_id, division_id) do update
    set identities = d.identities + excluded.identities, active_credentials = d.active_credentials + excluded.active_credentials
$$;

create or replace function division_counts_identities() returns trigger language plpgsql as $$
declare deltas jsonb;
begin
  if tg_op = 'INSERT' then
    select jsonb_agg(jsonb_build_object('c', client_id, 'd', division_id, 'i', n, 'a', 0)) into deltas
      from (select client_id, division_id, count(*) n from new_rows group by 1, 2) x;
  elsif tg_op = 'DELETE' then
    -- their credentials were taken off by division_counts_identity_deleting, before the cascade removed them
    select jsonb_agg(jsonb_build_object('c', client_id, 'd', division_id, 'i', -n, 'a', 0)) into deltas
      from (select client_id, division_id, count(*) n from old_rows group by 1, 2) x;
  else
    -- an identity moved to another division (or client); its active credentials move with its division
    select jsonb_agg(jsonb_build_object('c', c, 'd', d, 'i', i, 'a', a)) into deltas from (
      select o.client_id c, o.division_id d, -1 i, 0 a from old_rows o join new_rows n on n.id = o.id
        where (o.client_id, o.division_id) is distinct from (n.client_id, n.division_id)
      union all
      select n.client_id, n.division_id, 1, 0 from old_rows o join new_rows n on n.id = o.id
        where (o.client_id, o.division_id) is distinct from (n.client_id, n.division_id)
      union all
      select k.client_id, o.division_id, 0, -count(*) from old_rows o join new_rows n on n.id = o.id join credentials k on k.identity_id = o.id
        where o.division_id is distinct from n.division_id and k.status = 'active' group by 1, 2
      union all
      select k.client_id, n.division_id, 0, count(*) from old_rows o join new_rows n on n.id = o.id join credentials k on k.identity_id = n.id
        where o.division_id is distinct from n.division_id and k.status = 'active' group by 1, 2
    ) x;
  end if;
  if deltas is not null then perform division_counts_add(deltas); end if;
  return null;
end $$;

-- Before an identity is deleted, while its credentials are still there (the cascade removes them after it).
create or replace function division_counts_identity_deleting() returns trigger language plpgsql as $$
declare deltas jsonb;
begin
  select jsonb_agg(jsonb_build_object('c', client_id, 'd', old.division_id, 'i', 0, 'a', -n)) into deltas
    from (select client_id, count(*) n from credentials where identity_id = old.id and status = 'active' group by 1) x;
  if deltas is not null then perform division_counts_add(deltas); end if;
  return old;
end $$;

-- A credential counts in its identity's division; one whose identity is already gone (deleted in this transaction,
-- the cascade) was taken off by division_counts_identity_deleting.
create or replace function division_counts_credentials() returns trigger language plpgsql as $$
declare deltas jsonb;
begin
  if tg_op = 'INSERT' then
    select jsonb_agg(jsonb_build_object('c', c, 'd', d, 'i', 0, 'a', n)) into deltas from (
      select k.client_id c, i.division_id d, count(*) n from new_rows k join identities i on i.id = k.identity_id where k.status = 'active' group by 1, 2) x;
  elsif tg_op = 'DELETE' then
    select jsonb_agg(jsonb_build_object('c', c, 'd', d, 'i', 0, 'a', -n)) into deltas from (
      select k.client_id c, i.division_id d, count(*) n from old_rows k join identities i on i.id = k.identity_id where k.status = 'active' group by 1, 2) x;
  else
    select jsonb_agg(jsonb_build_object('c', c, 'd', d, 'i', 0, 'a', n)) into deltas from (
      select k.client_id c, i.division_id d, -count(*) n from old_rows k join new_rows m on m.id = k.id join identities i on i.id = k.identity_id
        where k.status = 'active' and (k.status, k.identity_id, k.client_id) is distinct from (m.status, m.identity_id, m.client_id) group by 1, 2
      union all
      select m.client_id, i.division_id, count(*) from old_rows k join new_rows m on m.id = k.id join identities i on i.id = m.identity_id
        where m.status = 'active' and (k.status, k.identity_id, k.client_id) is distinct from (m.status, m.identity_id, m.client_id) group by 1, 2) x;
  end if;
  if deltas is not null then perform division_counts_add(deltas); end if;
  return null;
end $$;

drop trigger if exists division_counts_insert on identities;
drop trigger if exists division_counts_update on identities;
drop trigger if exists division_counts_delete on identities;
drop trigger if exists division_counts_deleting on identities;
create trigger division_counts_insert after insert on identities referencing new table as new_rows for each statement execute function division_counts_identities();
create trigger division_counts_update after update on identities referencing old table as old_rows new table as new_rows for each statement execute function division_counts_identities();
create trigger division_counts_delete after delete on identities referencing old table as old_rows for each statement execute function division_counts_identities();
create trigger division_counts_deleting before delete on identities for each row execute function division_counts_identity_deleting();

drop trigger if exists division_counts_insert on credentials;
drop trigger if exists division_counts_update on credentials;
drop trigger if exists division_counts_delete on credentials;
create trigger division_counts_insert after insert on credentials referencing new table as new_rows for each statement execute function division_counts_credentials();
create trigger division_counts_update after update on credentials referencing old table as old_rows new table as new_rows for each statement execute function division_counts_credentials();
create trigger division_counts_delete after delete on credentials referencing old table as old_rows for each statement execute function division_counts_credentials();

-- emptied tables count nothing
create or replace function division_counts_truncated() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'identities' then delete from division_counts; else update division_counts set active_credentials = 0; end if;
  return null;
end $$;
drop trigger if exists division_counts_truncate on identities;
drop trigger if exists division_counts_truncate on credentials;
create trigger division_counts_truncate after truncate on identities for each statement execute function division_counts_truncated();
create trigger division_counts_truncate after truncate on credentials for each statement execute function division_counts_truncated();

-- what is there now
delete from division_counts;
insert into division_counts (client_id, division_id, identities, active_credentials)
select coalesce(i.client_id, k.client_id), coalesce(i.division_id, k.division_id), coalesce(i.n, 0), coalesce(k.n, 0)
  from (select client_id, division_id, count(*) n from identities group by 1, 2) i
  full join (select k.client_id, x.division_id, count(*) n from credentials k join identities x on x.id = k.identity_id where k.status = 'active' group by 1, 2) k
    on k.client_id = i.client_id and k.division_id = i.division_id;
