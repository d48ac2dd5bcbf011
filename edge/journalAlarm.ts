// The edge journal's fill alarm (issue 47: "its journal bounded … with an alarm when it is 80 % full"). The journal
// never drops an undelivered event, so what fills it is events the server has not stored yet: once they are
// EDGE_JOURNAL_ALARM_SHARE of its bound, the edge journals Edge journal 80 % full (1030, an alarm on the server, on the
// controller's `journal-<id>` point); once delivery brings them under EDGE_JOURNAL_NORMAL_SHARE, Edge journal below
// 80 % again (1031), which returns the alarm to normal. Both are journaled as every edge event is, so one raised and
// cleared while offline is recorded, not raised as new. Whether it is raised is read back from the journal on start.
import { EDGE_JOURNAL_ALARM_SHARE, EDGE_JOURNAL_NORMAL_SHARE, EVENT_CODES, eventLabel, fill } from '../contract';
import { said, type Journal, type JournalEntry } from './journal';
import type { SnapshotStore } from './snapshot';

export function watchJournalFill(opts: {
  journal: Journal;
  store: SnapshotStore;
  online: () => boolean;
  controllerId: () => number | null;
  onEvent?: (e: JournalEntry) => void;
}) {
  const { journal } = opts;
  const mine = (e: JournalEntry) => e.eventCode === EVENT_CODES.edgeJournalFilling || e.eventCode === EVENT_CODES.edgeJournalNormal;
  let raised = [...journal.all()].reverse().find(mine)?.eventCode === EVENT_CODES.edgeJournalFilling;
  let busy = false;

  function record(code: number) {
    const id = opts.controllerId() ?? opts.store.held?.snapshot.controllerId ?? 0;
    const name = opts.store.held?.snapshot.controllerName ?? `controller ${id}`;
    const share = Math.round((journal.undelivered / journal.limit) * 100);
    const e = journal.append({
      at: journal.now(),
      offline: !opts.online(),
      snapshotVersion: opts.store.held?.version ?? 0,
      eventCode: code,
      sourceId: `ctrl-${id}`,
      sourceName: name,
      pointId: `journal-${id}`,
      pointName: `${name} journal`,
      ...said(
        fill('event.edgeJournalShare', '{event}: {controller} holds {count} undelivered events ({share} % of {limit})', {
          event: eventLabel(code),
          controller: name,
          count: journal.undelivered,
          share,
          limit: journal.limit,
        }),
      ),
    });
    opts.onEvent?.(e);
  }

  function check() {
    if (busy) return; // its own append
    busy = true;
    try {
      const share = journal.undelivered / journal.limit;
      if (!raised && share >= EDGE_JOURNAL_ALARM_SHARE) {
        raised = true;
        record(EVENT_CODES.edgeJournalFilling);
      } else if (raised && share < EDGE_JOURNAL_NORMAL_SHARE) {
        raised = false;
        record(EVENT_CODES.edgeJournalNormal);
      }
    } finally {
      busy = false;
    }
  }

  const stop = journal.watch(check);
  check();
  return {
    get raised() {
      return raised;
    },
    stop,
  };
}
