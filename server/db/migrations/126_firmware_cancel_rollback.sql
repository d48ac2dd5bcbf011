-- Firmware [0.7.1.x] Cancel and Roll back (contract/resources/firmware.ts): where an image's roll-out stands
-- (none yet, installing, done, cancelled, rolled back), and per controller it was sent to the version it ran before and how far
-- it got. Kept apart from firmware_rollouts (the controllers chosen on the form, rewritten on every save).
alter table firmware_images add column if not exists rollout_state text not null default 'none'
  check (rollout_state in ('none', 'installing', 'done', 'cancelled', 'rolledBack'));
create table if not exists firmware_rollout_progress (
  firmware_id int not null references firmware_images(id) on delete cascade,
  controller_id int not null references controllers(id) on delete cascade,
  previous_version text,
  state text not null check (state in ('installing', 'done', 'cancelled', 'rolledBack')),
  updated_at timestamptz not null default now(),
  primary key (firmware_id, controller_id)
);
create index if not exists firmware_rollout_progress_controller on firmware_rollout_progress (controller_id);
