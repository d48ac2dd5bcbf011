-- Issue 47: an event's decided swipe (its card, door, side and, from a Gatehouse Edge, the Why? chain it was decided
-- with) is kept as json, the text as the server wrote it, not jsonb. Nothing queries inside it but `->>` of a few keys
-- (json has them), and each row of an edge's resync carries one: as jsonb each was parsed into the binary form and
-- written again (in PGlite's wasm, on the event loop). json is checked once and stored as it came: a row with a swipe
-- is cheaper to write (20,000 such rows in batches of 1,000 on PGlite: 12,000-13,400/s as jsonb, 14,900-21,200/s as
-- json, alternating runs at load 12).
alter table events alter column swipe type json using swipe::json;
