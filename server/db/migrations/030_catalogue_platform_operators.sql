-- The resource catalogue (issue 11). A visit may name the identity it visits: a real reference, so deleting that
-- identity is refused while a visit still names it.
alter table visitors add column if not exists host_id int references identities(id);
create index if not exists visitors_host on visitors(host_id);
-- Who may create tenants: platform operators. Platform-level privileges (9.2.1 Add clients) are held through a
-- platform grant, never through a role granted inside a client, so a tenant administrator cannot make new tenants.
create table if not exists platform_grants (
  user_id int not null references users(id),
  role_code text not null references roles(code),
  primary key (user_id, role_code));
insert into roles (code, name) values ('platform-operator', 'Platform operator') on conflict (code) do nothing;
insert into role_privileges (role_code, privilege) values ('platform-operator', '9.2.0'), ('platform-operator', '9.2.1'), ('platform-operator', '9.2.2')
  on conflict do nothing;
-- an existing database: whoever could add clients and works in several clients becomes a platform operator;
-- roles granted inside clients no longer carry 9.2.1
insert into platform_grants (user_id, role_code)
  select distinct g.user_id, 'platform-operator' from user_grants g
    join role_privileges rp on rp.role_code = g.role_code join users u on u.id = g.user_id
   where rp.privilege = '9.2.1' and u.multi_tenancy
  on conflict do nothing;
delete from role_privileges where privilege = '9.2.1' and role_code <> 'platform-operator';
-- Drift the catalogue's schema test found: a visit always has a purpose (the form and the API default it).
update visitors set purpose = 'meeting' where purpose is null;
alter table visitors alter column purpose set not null;
