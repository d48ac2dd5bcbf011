-- Lockdown (issue 12): a locked-down door remembers the mode it had, so a release gives it back.
alter table doors add column if not exists mode_before_lockdown text;
