-- The identity search's trigram indexes (migrations 023 and 060) without GIN's pending list (issue 13). With
-- fastupdate on, new entries wait in an unsorted list that every search reads in full until a VACUUM merges it:
-- PGlite never autovacuums, so after a batch upload of 200,000 identities each search read megabytes of it (a
-- credential-number search took 10 ms instead of 0.05 ms). Identities are written far less often than searched:
-- each write now goes straight into the index, and what is pending today is merged once here.
alter index identities_search_trgm set (fastupdate = off);
alter index credentials_number_trgm set (fastupdate = off);
alter index identities_udf_trgm set (fastupdate = off);
select gin_clean_pending_list('identities_search_trgm'::regclass);
select gin_clean_pending_list('credentials_number_trgm'::regclass);
select gin_clean_pending_list('identities_udf_trgm'::regclass);
