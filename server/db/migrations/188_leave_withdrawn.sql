-- A leave request its person (or whoever filed it) takes back before it is decided (issue 50: contract
-- leaveResource's record action `withdraw`, server/resources/leave.ts): the state `withdrawn`, with who withdrew it
-- and when in decided_by / decided_at and the reason in decision_note. Withdrawn leave counts nowhere, as rejected.
alter table leave_records drop constraint if exists leave_records_status_check;
alter table leave_records add constraint leave_records_status_check check (status in ('requested', 'approved', 'rejected', 'withdrawn'));
