-- Gatehouse Edge's live lane (issue 47): an edge sending its journal's backlog sends an event it journals while online at
-- once beside it. The server stores such an event ahead of the controller's last number (edge_controllers.last_seq, the
-- contiguous mark) and notes its number here in the event's own transaction, so the backlog's copy of it (and any
-- resend) is a duplicate; the mark passes over it as the backlog arrives and the row goes.
create table if not exists edge_seq_ahead (
  controller_id int not null references edge_controllers(controller_id) on delete cascade,
  seq bigint not null,
  primary key (controller_id, seq)
);

-- a door's status moved by an edge's event is the newest event's (the live lane stores an event before older ones of
-- the backlog): when the event that set it happened
alter table doors add column if not exists status_at timestamptz;
