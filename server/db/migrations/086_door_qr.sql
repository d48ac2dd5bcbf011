-- Door QR codes (issue 12): a door with a secret takes rotating QR codes at its reader. The secret never leaves the
-- server; the console asks the server for a credential's current code.
alter table doors add column if not exists qr_secret text;
