-- Real door I/O (issue 47): an output wired fail-safe (a magnetic lock: energised to lock, a power cut unlocks it), so
-- the edge drives its board point on while the door is locked and off while it is unlocked.
alter table outputs add column if not exists fail_safe boolean not null default false;
