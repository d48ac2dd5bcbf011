-- Gatehouse Edge (issue 47): a controller that decides its own swipes connects out to the server with its own key.
-- The key is a service account's (issue 11: `gh_<key id>_<secret>`, only its hash kept, shown once, revocable, one
-- session per key) bound to the controller: it works in the controller's client only, for that controller's doors
-- only, with the device interface's role. Deleting the controller deletes its account, so its key is refused at once.
alter table service_accounts add column if not exists controller_id int unique references controllers(id) on delete cascade;

-- per edge controller: the last sequence number of its events stored (a resend after a reconnect stores nothing
-- twice), the snapshot version last built for it (it only ever grows) and its hash, and when it was last connected
create table if not exists edge_controllers (
  controller_id int primary key references controllers(id) on delete cascade,
  client_id int not null references clients(id),
  last_seq bigint not null default 0,
  snapshot_version bigint not null default 0,
  snapshot_hash text,
  applied_version bigint not null default 0,
  edge_version text,
  pending int not null default 0,
  connected_at timestamptz,
  disconnected_at timestamptz
);
create index if not exists edge_controllers_client on edge_controllers(client_id);
