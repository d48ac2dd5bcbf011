-- Real door I/O (issue 47): where an output or input is wired, on a board of its controller's bus (an OSDP reader
-- interface or I/O board, interfaces) at its point number on that board (0-based, as OSDP numbers them). No board:
-- simulated, as before. One output per board point (server/resources/boardPoints.ts says so on the field first).
alter table outputs add column if not exists board_id int references interfaces(id);
alter table outputs add column if not exists point int;
alter table inputs add column if not exists board_id int references interfaces(id);
alter table inputs add column if not exists point int;
create unique index if not exists outputs_board_point on outputs(board_id, point) where board_id is not null;
