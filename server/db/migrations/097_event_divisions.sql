-- The division of an event's source (issue 10): the door's division for a door, its reader, contact and strike; the
-- controller's for an interface, an input, an output or a reader record; null for what belongs to no division (a
-- logical block's alarm). Lists, exports, open alarms and the live stream give an operator the events of the
-- divisions they hold the privilege in, and those of no division. Written by the pipeline with the event; nothing
-- refers to it (a division deleted later leaves its number on old events, which then show to whole-client grants only).
alter table events add column if not exists division_id int;
