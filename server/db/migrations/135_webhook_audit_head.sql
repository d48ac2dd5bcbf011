-- Issue 45: a web hook may receive each signed audit head of its client (`audit.head`), so the heads leave the
-- installation as they are signed (as the AUDIT_WITNESS_DIR directory keeps them): a receiver that keeps them can later
-- prove a cut of the newest audit records. The body carries what a verifier needs: the head's seq, hash, the instant
-- signed (exactly as signed: ISO 8601 in UTC with milliseconds) and the Ed25519 signature over
-- "gatehouse-audit-head/1\n<clientId>\n<seq>\n<hash>\n<signedAt>" (server/audit/heads.ts headMessage), checked with
-- GET /event/manage/audit/public-key.
alter table web_hooks add column if not exists audit_head boolean not null default false;

create or replace function webhook_enqueue_audit_heads() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (client_id, hook_id, event_type, body)
  select h.client_id, h.id, 'audit.head', jsonb_build_object('type', 'audit.head', 'clientId', n.client_id, 'occurredAt', n.signed_at, 'data', jsonb_build_object(
      'seq', n.seq, 'hash', n.hash, 'signedAt', to_char(n.signed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'signature', n.signature))
    from new_rows n
    join web_hooks h on h.client_id = n.client_id and h.active and h.audit_head;
  return null;
end $$;
drop trigger if exists webhook_audit_heads on audit_heads;
create trigger webhook_audit_heads after insert on audit_heads referencing new table as new_rows for each statement execute function webhook_enqueue_audit_heads();
