// Real readers on an OSDP bus (issue 47 with issue 46's edge/osdp): each card a reader sends is a swipe at the door of
// the snapshot's reader at that bus address, on its side, decided by the edge as every swipe is (edge/doors.ts). The
// bus is told of each reader address of the snapshot as snapshots arrive.
import type { Bus } from './osdp';
import type { Doors } from './doors';
import type { SnapshotStore } from './snapshot';

export function attachOsdp(bus: Bus, doors: Doors, store: SnapshotStore, log: (m: string) => void = () => {}) {
  const added = new Set<number>();
  const addReaders = () => {
    for (const r of store.held?.snapshot.readers ?? []) {
      if (added.has(r.address)) continue;
      added.add(r.address);
      bus.add({ address: r.address });
    }
  };
  bus.on('card', (ev) => {
    const reader = store.held?.snapshot.readers.find((r) => r.address === ev.address);
    if (!reader) {
      log(`OSDP reader ${ev.address}: a card, but no reader of this controller is at that bus address`);
      return;
    }
    const out = doors.swipe({ doorId: reader.doorId, side: reader.direction, bits: ev.bits });
    log(
      `${reader.name} (OSDP ${ev.address}): ${out.decision.granted ? 'granted' : `denied (${out.decision.reason})`}${out.mode === 'online' ? '' : ` [${out.mode}]`}`,
    );
  });
  bus.on('online', (ev) => log(`OSDP reader ${ev.address} online${ev.secure ? ' (secure channel)' : ''}`));
  bus.on('offline', (ev) => log(`OSDP reader ${ev.address} offline: ${ev.reason}`));
  bus.on('lineError', (ev) => log(`OSDP line: ${ev.message}`));
  addReaders();
  bus.start();
  return { snapshotChanged: addReaders };
}
