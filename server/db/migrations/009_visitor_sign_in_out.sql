-- Visitors sign in at the front desk when they arrive and sign out when they leave: when, and by whom.
alter table visitors add column if not exists signed_in_at timestamptz;
alter table visitors add column if not exists signed_out_at timestamptz;
alter table visitors add column if not exists signed_in_by int references users(id);
alter table visitors add column if not exists signed_out_by int references users(id);
