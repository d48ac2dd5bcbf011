-- Identities listed newest change first or by the end of validity (issue 11, the 200,000-row list bench): the list
-- orders by the column, then by id ascending, within a client; these indexes hand it that order, so a page is an
-- index walk instead of a sort of every row.
create index if not exists identities_client_updated on identities (client_id, updated_at desc, id);
create index if not exists identities_client_valid_to on identities (client_id, valid_to desc, id);
