// Selectors of the replay screen (machines/journal.ts replayViewerMachine): the machines a loaded journal speaks of,
// and its timeline under the machine filter with each line's replay outcome.
import type { JournalEntry } from '../contract';
import type { ReplayViewerContext } from './journal';
import type { ReplayStep } from './journal.replay';

export interface TimelineStep {
  line: number;
  entry: JournalEntry;
  /** The replayed state, when this line belongs to a machine of the system (implementation actors are not replayed). */
  step: ReplayStep | null;
  /** The replay parted from the journal here. */
  diverged: boolean;
}

/** The machines (systemIds, the root, implementation actors) the loaded journal speaks of, in first-seen order. */
export const selectJournalActors = (ctx: ReplayViewerContext): string[] => (ctx.result ? [...new Set(ctx.result.journal.lines.map((l) => l.entry.actor))] : []);

/** The loaded journal's lines under the machine filter, each with its replay outcome. */
export function selectTimeline(ctx: ReplayViewerContext): TimelineStep[] {
  const r = ctx.result;
  if (!r) return [];
  const byLine = new Map(r.steps.map((s) => [s.line, s]));
  const divergedAt = r.ok ? null : r.line;
  return r.journal.lines
    .filter((l) => ctx.filter === null || l.entry.actor === ctx.filter)
    .map(({ line, entry }) => {
      const step = byLine.get(line) ?? null;
      return { line, entry, step, diverged: line === divergedAt || (step !== null && !step.matches) };
    });
}
