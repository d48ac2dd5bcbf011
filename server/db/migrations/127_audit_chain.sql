-- Issue 31: a tamper-evident audit trail. Every audit_log row carries its place in its client's chain (seq, from 1;
-- rows of no client form a chain of their own), the hash of the row before it in that chain (prev_hash, null for
-- the first) and the SHA-256 of its canonical content (hash). The database computes them in a BEFORE INSERT trigger,
-- so every insert path (insertAudit, the batch upload, anything later) is chained, and two servers on one
-- PostgreSQL serialise per client on a transaction advisory lock (held until the inserting transaction ends).
--
-- The canonical content (version 1), written down here and in server/audit/chain.ts: the text of
--   jsonb_build_array('gatehouse-audit/1', id, client_id, seq, prev_hash, actor, action, entity, entity_id, before,
--                     after, at in UTC as YYYY-MM-DDTHH:MM:SS.ffffffZ)::text
-- encoded as UTF-8; hash = lower-case hex of its SHA-256.
alter table audit_log add column if not exists seq bigint;
alter table audit_log add column if not exists prev_hash text;
alter table audit_log add column if not exists hash text;

create or replace function audit_canonical(r audit_log) returns text language sql stable as $$
  select jsonb_build_array('gatehouse-audit/1', r.id, r.client_id, r.seq, r.prev_hash, r.actor, r.action, r.entity, r.entity_id,
    r.before, r.after, to_char(r.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))::text
$$;

create or replace function audit_hash(r audit_log) returns text language sql stable as $$
  select encode(sha256(convert_to(audit_canonical(r), 'UTF8')), 'hex')
$$;

-- existing rows: chained in id order, chain by chain
do $$
declare
  r audit_log;
  chain int := null;
  n bigint := 0;
  h text := null;
begin
  for r in select * from audit_log where hash is null order by coalesce(client_id, -1), id loop
    if chain is distinct from coalesce(r.client_id, -1) then chain := coalesce(r.client_id, -1); n := 0; h := null; end if;
    n := n + 1;
    r.seq := n;
    r.prev_hash := h;
    h := audit_hash(r);
    update audit_log set seq = n, prev_hash = r.prev_hash, hash = h where id = r.id;
  end loop;
end $$;

alter table audit_log alter column seq set not null;
alter table audit_log alter column hash set not null;
create unique index if not exists audit_log_chain on audit_log ((coalesce(client_id, -1)), seq);

-- 31031: the advisory lock class of the audit chains (the second key is the client, -1 for rows of no client)
create or replace function audit_chain() returns trigger language plpgsql as $$
declare
  last_seq bigint;
  last_hash text;
begin
  perform pg_advisory_xact_lock(31031, coalesce(new.client_id, -1));
  -- the id too is drawn under the lock, so a chain's ids rise with its seq (the order the rows were written in)
  new.id := nextval('audit_log_id_seq');
  select seq, hash into last_seq, last_hash from audit_log
    where coalesce(client_id, -1) = coalesce(new.client_id, -1) order by seq desc limit 1;
  new.seq := coalesce(last_seq, 0) + 1;
  new.prev_hash := last_hash;
  new.hash := audit_hash(new);
  return new;
end $$;
drop trigger if exists audit_chain on audit_log;
create trigger audit_chain before insert on audit_log for each row execute function audit_chain();

-- the chains' heads, signed now and then with the server's Ed25519 key (server/audit/chain.ts says what is signed)
create table if not exists audit_heads (
  id bigserial primary key, client_id int, seq bigint not null, hash text not null, signed_at timestamptz not null,
  signature text not null);
create index if not exists audit_heads_chain on audit_heads ((coalesce(client_id, -1)), seq desc);
