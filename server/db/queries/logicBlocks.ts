// Logical blocks (server/logic/blocks.ts; issue 48: in the queries room): a client's active blocks, as the engine reads them.
import type { LogicAction, LogicTrigger } from '../../../contract';
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface LogicBlock {
  id: number;
  name: string;
  trigger: LogicTrigger;
  inputId: number | null;
  doorId: number | null;
  scheduleId: number | null;
  action: LogicAction;
  outputId: number | null;
  actionDoorId: number | null;
  alarmText: string | null;
}

/** The client's active logical blocks, by id. */
export async function activeLogicBlocks(db: Db, clientId: number): Promise<LogicBlock[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<LogicBlock>(
    `select id, name, trigger, input_id as "inputId", door_id as "doorId", schedule_id as "scheduleId", action,
          output_id as "outputId", action_door_id as "actionDoorId", alarm_text as "alarmText"
        from logical_blocks where ${tenant(params, clientId)} and active order by id`,
    params,
  );
  return rows;
}
