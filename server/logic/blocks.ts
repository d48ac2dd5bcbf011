// Logical blocks at work (issue 12, contract/resources/logicalBlocks.ts): every durable event is matched against
// its tenant's blocks that are on; a block whose trigger, input or door and schedule fit does its action through
// the same paths an operator's command takes (the simulator's door commands and output pulses, the pipeline for an
// alarm), so the door's state, the live events and the audit of events all show it, naming the block. Actions run
// in the 'logic' event origin: what a block does never starts another block, so blocks cannot loop.
// The blocks of a tenant are read once and again only after a change notice of the resource.
import { EVENT_CODES, INPUT_TRIGGERS, LOGIC_TRIGGER_CODES, eventLabel, fill, type Event, type LogicTrigger } from '../../contract';
import { localTime } from '../../access/clock';
import { scheduleOpen } from '../../access/schedule';
import type { Db } from '../db/db';
import { eventOrigin, type Pipeline } from '../monitor/pipeline';
import { said } from '../monitor/events';
import type { HardwarePort } from '../doors/port';
import { activeLogicBlocks, type LogicBlock } from '../db/queries/logicBlocks';

export type { LogicBlock };

const TRIGGER_OF_CODE = new Map<number, LogicTrigger[]>();
for (const [trigger, codes] of Object.entries(LOGIC_TRIGGER_CODES) as [LogicTrigger, readonly number[]][]) {
  for (const c of codes) TRIGGER_OF_CODE.set(c, [...(TRIGGER_OF_CODE.get(c) ?? []), trigger]);
}

/** The input (`in-7`) or door (`door-3`, `reader-3`, `output-3`) an event happened at. */
export function placeOf(e: Pick<Event, 'eventSourceId' | 'eventPointId'>): { inputId: number | null; doorId: number | null } {
  const source = String(e.eventSourceId);
  const input = /^in-(\d+)$/.exec(source);
  if (input) return { inputId: Number(input[1]), doorId: null };
  const door = /^(?:door|reader|output)-(\d+)$/.exec(String(e.eventPointId ?? '')) ?? /^(?:door|reader)-(\d+)$/.exec(source);
  return { inputId: null, doorId: door ? Number(door[1]) : null };
}

/** Does `block` fire on `e` (schedule aside)? */
export function matches(block: LogicBlock, e: Pick<Event, 'eventCode' | 'eventSourceId' | 'eventPointId'>): boolean {
  if (!(TRIGGER_OF_CODE.get(Number(e.eventCode)) ?? []).includes(block.trigger)) return false;
  const at = placeOf(e);
  if (INPUT_TRIGGERS.includes(block.trigger)) return block.inputId === null || at.inputId === block.inputId;
  return block.doorId === null || at.doorId === block.doorId;
}

export function createLogicBlocks(db: Db, pipeline: Pipeline, simulator: HardwarePort, opts: { log?: (m: string) => void } = {}) {
  const log = opts.log ?? (() => {});
  /** each tenant's blocks: the read under way or done, and once it has come back its rows (an event is matched
   *  against them at once, without a promise) */
  const cache = new Map<number, { read: Promise<LogicBlock[]>; rows?: LogicBlock[] }>();
  let fired = 0;
  /** the actions under way (tests wait for them) */
  const running = new Set<Promise<unknown>>();

  const load = (clientId: number) => {
    const known = cache.get(clientId);
    if (known) return known.read;
    const entry: { read: Promise<LogicBlock[]>; rows?: LogicBlock[] } = {
      read: activeLogicBlocks(db, clientId).then((rows) => (entry.rows = rows)),
    };
    // a failed read is asked again by the next event; a change notice meanwhile has dropped the entry already
    entry.read.catch(() => cache.get(clientId) === entry && cache.delete(clientId));
    cache.set(clientId, entry);
    return entry.read;
  };

  async function inSchedule(clientId: number, block: LogicBlock, at: number): Promise<boolean> {
    if (block.scheduleId === null) return true;
    const index = await simulator.access.get(clientId);
    const schedule = index.schedules.get(block.scheduleId);
    if (!schedule) return false;
    const t = localTime(at, index.timeZone);
    return scheduleOpen(schedule, t, index.calendar.on(t)).open;
  }

  async function act(clientId: number, block: LogicBlock, cause: Event): Promise<void> {
    const by = fill('actor.logicalBlock', 'logical block {name}', { name: block.name });
    switch (block.action) {
      case 'pulse-output':
        if (block.outputId !== null) await simulator.pulseOutput(clientId, block.outputId, by);
        return;
      case 'unlock-door':
      case 'lock-door':
      case 'momentary-unlock': {
        if (block.actionDoorId === null) return;
        const cmd = block.action === 'unlock-door' ? 'unlock' : block.action === 'lock-door' ? 'lock' : 'momentary-unlock';
        // a block does what it says whatever the door's state (an operator's command would be refused as pointless)
        await simulator.command(clientId, block.actionDoorId, cmd, by, { force: true });
        return;
      }
      case 'raise-alarm':
        await pipeline.record(clientId, {
          eventCode: EVENT_CODES.logicAlarm,
          sourceId: `logic-${block.id}`,
          sourceName: block.name,
          // issue 48: the block's own words (or its name) as written, the cause's label in the operator's language
          ...said(
            fill('event.logicAlarm', '{text}: {event} ({source})', {
              text: block.alarmText?.trim() || block.name,
              event: eventLabel(cause.eventCode),
              source: cause.eventSourceName ?? cause.eventSourceId,
            }),
          ),
        });
    }
  }

  async function onEvent(clientId: number, e: Event): Promise<void> {
    const blocks = (await load(clientId)).filter((b) => matches(b, e));
    for (const b of blocks) {
      if (!(await inSchedule(clientId, b, Date.parse(e.time)))) continue;
      fired++;
      await eventOrigin.run('logic', () => act(clientId, b, e)).catch((err) => log(`logical block ${b.id} (${b.name}): ${err}`));
    }
  }

  const stop = pipeline.onCommitted((clientId, e, origin) => {
    // most events start no block: those are let go here, without a promise each (issue 30: thousands a second)
    if (origin === 'logic' || !TRIGGER_OF_CODE.has(Number(e.eventCode))) return;
    if (cache.get(clientId)?.rows?.some((b) => matches(b, e)) === false) return; // the tenant's blocks, read: none of them
    const p = onEvent(clientId, e).catch((err) => log(`logical blocks: ${err}`));
    running.add(p);
    void p.finally(() => running.delete(p));
  });

  return {
    /** A change notice of logical blocks (or of what they name): read the tenant's blocks again. */
    changed(clientId: number) {
      cache.delete(clientId);
    },
    /** How many times a block fired (tests). */
    get fired() {
      return fired;
    },
    /** Resolves when the actions of the events so far have run (tests). */
    async settled() {
      while (running.size) await Promise.all([...running]);
      await simulator.settled();
    },
    stop,
  };
}
export type LogicBlocks = ReturnType<typeof createLogicBlocks>;
