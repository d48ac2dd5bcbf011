-- A member of staff requests their own leave (issue 50; contract/resources/attendance.ts leaveResource, privileges.own;
-- server/crud/scopes.ts): 3.8.3 "Request own leave" lists, opens and files only the leave of the identity with the
-- operator's e-mail. Whoever could add leave (3.8.1) may also request their own: the roles that hold it (each client's
-- role by its id, over the same divisions) and the templates new clients copy.
insert into role_privileges (role_id, role_code, privilege, division_id)
  select role_id, role_code, '3.8.3', division_id from role_privileges where privilege = '3.8.1' on conflict do nothing;
insert into role_template_privileges (code, privilege) select code, '3.8.3' from role_template_privileges where privilege = '3.8.1' on conflict do nothing;
