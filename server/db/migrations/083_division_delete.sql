-- Divisions are deleted through the catalogue (issue 12) under a code of their own, 0.4.9.3 "Delete divisions":
-- whoever may edit divisions (a role template's tick or a client role's, in the same division) may delete them too.
insert into role_template_privileges (code, privilege)
  select code, '0.4.9.3' from role_template_privileges where privilege = '0.4.9.2'
  on conflict do nothing;
insert into role_privileges (role_id, role_code, privilege, division_id)
  select role_id, role_code, '0.4.9.3', division_id from role_privileges where privilege = '0.4.9.2'
  on conflict do nothing;
