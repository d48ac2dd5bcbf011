-- The identities list sorts by name by default and pages through a client's rows: keep that an index walk.
create index if not exists identities_client_name on identities(client_id, last_name, first_name, id);
create index if not exists identities_client_employee on identities(client_id, employee_no);
create index if not exists credentials_client_number on credentials(client_id, number);
