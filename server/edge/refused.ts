// An edge's journal entry that fails its checks (contract DeviceEvent) at the device interface (server/http/ingest.ts):
// refused naming its field, its number used all the same when it is the next (server/edge/ingest.ts admit).
import type { Violation } from '../../contract';

/** A message refused for what it says (it fails DeviceEvent) whose controller and journal number are readable. */
export interface NumberedRefusal {
  index: number;
  controllerId: number;
  seq: number;
  violations: Violation[];
}

/**
 * The controller and journal number of a message that fails its checks, when both are readable and it is not of the live
 * lane: its number is used all the same, as a decided swipe refused for what it names (an edge sends a journal entry
 * until the server's last number passes it: refused as a gap, one malformed entry held back every one after it, in its
 * batch and for ever). null: refused as it is, its number not used.
 */
export function journalNumberOf(raw: unknown): { controllerId: number; seq: number } | null {
  if (!raw || typeof raw !== 'object') return null;
  const { controllerId, edge } = raw as { controllerId?: unknown; edge?: unknown };
  if (!edge || typeof edge !== 'object') return null;
  const { seq, live } = edge as { seq?: unknown; live?: unknown };
  if (live === true || typeof controllerId !== 'number' || typeof seq !== 'number') return null;
  if (!Number.isSafeInteger(controllerId) || controllerId < 1 || controllerId > 2_147_483_647 || !Number.isSafeInteger(seq) || seq < 1) return null;
  return { controllerId, seq };
}
