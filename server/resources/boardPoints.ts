// Where an input or output is wired (issue 47, contract/resources/hardware.ts boardId and point): on a board of its
// own controller's bus (a reader interface or an I/O board: an elevator board drives floors, not doors), at a point
// that needs saying; two outputs never drive one point (the unique index outputs_board_point is the truth in a race).
import { fill, type Violation } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { boardOf, outputAtPoint } from '../db/queries/boardPoints';
import {} from '../http/kit';

const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);

export const boardPointHooks = (kind: 'input' | 'output'): ResourceHooks => ({
  async validate(ctx, input, before) {
    const boardId = num(input.boardId === undefined ? before?.boardId : input.boardId);
    const point = num(input.point === undefined ? before?.point : input.point);
    const controllerId = num(input.controllerId ?? before?.controllerId);
    if (boardId === null) return []; // not wired: simulated (a point alone says nothing)
    if (ctx.clientId === null) return [];
    const out: Violation[] = [];
    const board = await boardOf(ctx.tx, ctx.clientId, boardId);
    if (!board) return []; // not visible: the reference check says so
    if (controllerId !== null && board.controllerId !== controllerId)
      out.push({ field: 'boardId', ...fill('board.otherController', 'is a board of another controller ({name})', { name: board.name }) });
    else if (board.kind === 'elevator')
      out.push({ field: 'boardId', ...fill('board.isElevator', 'is an elevator board: wire it to a reader interface or an I/O board', {}) });
    if (point === null) out.push({ field: 'point', ...fill('board.pointRequired', 'is required on a board', {}) });
    else if (kind === 'output') {
      const holder = await outputAtPoint(ctx.tx, ctx.clientId, boardId, point, before?.id ?? 0);
      if (holder) out.push({ field: 'point', ...fill('board.pointTaken', 'is already taken on this board (by {name})', { name: holder.name }) });
    }
    return out;
  },
});
