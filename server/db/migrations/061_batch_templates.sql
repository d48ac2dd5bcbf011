-- Identity batch templates (issue 11) [0.3.1.6–0.3.1.8]: which spreadsheet column (by header) fills which identity
-- field, a user-defined field or the card number; imported rows go to the template's division.
create table if not exists batch_templates (
  id serial primary key, client_id int not null references clients(id), name text not null,
  division_id int not null references divisions(id), credential_type text not null default 'card',
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  unique (client_id, name));
create table if not exists batch_template_columns (
  id serial primary key, client_id int not null references clients(id),
  template_id int not null references batch_templates(id) on delete cascade,
  header text not null, target text not null, udf_key text);
create index if not exists batch_template_columns_template on batch_template_columns(template_id);
