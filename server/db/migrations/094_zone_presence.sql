-- Who is inside which access zone (issue 12), kept in the database so a restart or a second server knows it: the
-- zone each identity was last let into by a granted swipe (null: let out to no zone), and when. Anti-passback,
-- occupancy and the muster list read it; an operator's Forgive deletes the row. A deleted zone or identity takes
-- its rows with it.
create table if not exists zone_presence (
  identity_id int primary key references identities(id) on delete cascade,
  client_id int not null references clients(id) on delete cascade,
  zone_id int references access_zones(id) on delete cascade,
  at timestamptz not null
);
create index if not exists zone_presence_zone on zone_presence(client_id, zone_id);
