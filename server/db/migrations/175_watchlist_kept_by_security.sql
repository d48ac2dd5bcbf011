-- Issue 50: the visitor watchlist is kept by security, not the front desk. A receptionist still reads it and decides
-- its matches (1.5.0, 1.5.4) but no longer adds, changes or removes entries (1.5.1–1.5.3): who is denied entry is not
-- the desk's to change. The security operator keeps it (1.5.0–1.5.3). Only the product's own roles are changed; a role
-- an administrator made keeps what it was given.
delete from role_privileges where role_code = 'receptionist' and privilege in ('1.5.1', '1.5.2', '1.5.3');
insert into role_privileges (role_code, privilege)
  select r.code, p.code from roles r cross join (values ('1.5.0'), ('1.5.1'), ('1.5.2'), ('1.5.3')) as p(code)
  where r.code = 'security-operator'
  on conflict do nothing;
