-- Issue 48: an event's message as a sentence the console says in the operator's language: its key (the catalogue's
-- scheme, contract/messages.ts) and values beside the English `message`, which stays as the API's and the export's.
-- Events stored before this have neither, and keep their English.
alter table events add column if not exists message_code text;
alter table events add column if not exists message_values jsonb;
