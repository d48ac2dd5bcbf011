-- Doors on the catalogue (issue 12): every door belongs to a division (its division scopes who sees, controls and
-- edits it). A door stored without one is given its client's first top-level division (a client with doors and no
-- division gets one, "Main", first).
insert into divisions (client_id, name)
  select distinct d.client_id, 'Main' from doors d
  where d.division_id is null and not exists (select 1 from divisions v where v.client_id = d.client_id);
update doors d set division_id = (
  select v.id from divisions v where v.client_id = d.client_id order by (v.parent_id is null) desc, v.id limit 1)
where d.division_id is null;
alter table doors alter column division_id set not null;
