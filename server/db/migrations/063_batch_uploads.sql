-- Identity batch uploads (issue 11) [0.3.1.9]: a parsed file waits here between its dry-run preview and its
-- import (the rows as the template mapped them, the per-row errors found), then keeps the import's result, so the
-- error report can be downloaded and a re-run (interrupted stream, second click) stays idempotent.
create table if not exists batch_uploads (
  id serial primary key, client_id int not null references clients(id), user_id int not null references users(id),
  template_id int not null references batch_templates(id) on delete cascade, file_name text not null,
  total int not null, rows jsonb not null, errors jsonb not null default '[]'::jsonb, result jsonb,
  created_at timestamptz not null default now(), imported_at timestamptz);
create index if not exists batch_uploads_client on batch_uploads(client_id, id);
