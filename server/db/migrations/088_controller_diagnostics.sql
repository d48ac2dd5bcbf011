-- Controller diagnostics (issue 12): what a controller reports of itself — its firmware and since when it is online
-- (uptime). The simulated controllers report the simulator's firmware; online_since follows their status.
alter table controllers add column if not exists firmware text;
alter table controllers add column if not exists online_since timestamptz;
update controllers set firmware = coalesce(firmware, 'GH-C4 4.2.1'), online_since = coalesce(online_since, now()) where status = 'online';
update controllers set firmware = coalesce(firmware, 'GH-C4 4.2.1') where firmware is null;
