-- Issue 50: the visitor watchlist is kept by security, not the front desk. A receptionist still reads it and decides
-- its matches (1.5.0, 1.5.4) but no longer adds, changes or removes entries (1.5.1–1.5.3): who is denied entry is not
-- the desk's to change. The security operator keeps it (1.5.0–1.5.3). Only the product's own roles (each client's copy
-- of the receptionist and security-operator templates, and the templates new clients copy) are changed.
delete from role_privileges where role_code = 'receptionist' and privilege in ('1.5.1', '1.5.2', '1.5.3');
delete from role_template_privileges where code = 'receptionist' and privilege in ('1.5.1', '1.5.2', '1.5.3');
insert into role_privileges (role_id, role_code, privilege)
  select r.id, r.code, p.code from roles r cross join (values ('1.5.0'), ('1.5.1'), ('1.5.2'), ('1.5.3')) as p(code)
  where r.code = 'security-operator'
on conflict do nothing;
insert into role_template_privileges (code, privilege)
  select t.code, p.code from role_templates t cross join (values ('1.5.0'), ('1.5.1'), ('1.5.2'), ('1.5.3')) as p(code)
  where t.code = 'security-operator'
on conflict do nothing;
