// The simulated controllers' heart-beats: each controller's status per tenant and division on /hbcontroller (the
// central service), each door's on /hbdoor, and the firmware roll-outs the heart-beat moves on (a controller says it
// started, then runs the new version FIRMWARE_INSTALL_MS after it was sent).
import { DESTINATIONS, EVENT_CODES, FIRMWARE_INSTALL_MS, eventLabel, fill } from '../../contract';
import type { Db } from '../db/db';
import * as q from '../db/queries/simulator';
import type { Pipeline, Publish } from '../monitor/pipeline';
import { said } from '../monitor/events';

export function createHeartbeat({ db, pipeline, publish }: { db: Db; pipeline: Pipeline; publish: Publish }) {
  /**
   * Firmware [0.7.1.0] a controller was sent (Server → Firmware, Roll out): it says it started (event 1020), and
   * FIRMWARE_INSTALL_MS after it was sent runs the new version (firmware, event 1021). Done at each heart-beat.
   * A cancelled roll-out took the target back (nothing installs); a roll back is a target of the previous version.
   */
  async function firmwareStep(): Promise<void> {
    const started = await q.startFirmware(db);
    for (const c of started) {
      await pipeline.record(c.client_id, {
        eventCode: EVENT_CODES.firmwareSent,
        sourceId: `iface-${c.id}`,
        sourceName: c.name,
        ...said(
          fill('event.firmwareSent', '{event}: {version} on {controller}', {
            event: eventLabel(EVENT_CODES.firmwareSent),
            version: c.firmware_target,
            controller: c.name,
          }),
        ),
      });
    }
    const installed = await q.installFirmware(db, FIRMWARE_INSTALL_MS / 1000);
    for (const c of installed) {
      await pipeline.record(c.client_id, {
        eventCode: EVENT_CODES.firmwareInstalled,
        sourceId: `iface-${c.id}`,
        sourceName: c.name,
        ...said(
          fill('event.firmwareInstalled', '{event}: {controller} runs {version}', {
            event: eventLabel(EVENT_CODES.firmwareInstalled),
            controller: c.name,
            version: c.firmware,
          }),
        ),
      });
    }
    if (!installed.length) return;
    // [0.7.1.x] the roll-out's progress: this controller is done; the roll-out once none is still installing it
    const done = await q.finishRolloutProgress(
      db,
      installed.map((c) => c.id),
    );
    await q.finishRollouts(db, done);
    // issue 50: the open firmware list and image page, and the controllers list, read again at once (the page said
    // "Installing 2" for half a minute after both controllers ran the new version)
    const images = await q.imagesRunBy(
      db,
      installed.map((c) => c.id),
    );
    for (const f of images) publish(f.client_id, `${DESTINATIONS.changes}/firmware`, { resource: 'firmware', id: Number(f.id), action: 'update' });
    for (const c of installed) publish(c.client_id, `${DESTINATIONS.changes}/controllers`, { resource: 'controllers', id: Number(c.id), action: 'update' });
  }

  /** Controller heart-beats per tenant on /hbcontroller (central service), door heart-beats on /hbdoor. */
  async function heartbeat(): Promise<void> {
    const controllers = await q.heartbeatControllers(db);
    // a roll-out moves on with the heart-beat; with none pending, no update is tried
    if (controllers.some((c) => c.firmware_pending)) await firmwareStep();
    // one list per tenant and division: a console hears the controllers of the divisions it may see (issue 10); the
    // console merges the lists it hears
    const byScope = new Map<string, { clientId: number; division: number | null; list: { id: number; name: string; status: string }[] }>();
    for (const c of controllers) {
      const key = `${c.client_id}:${c.division_id ?? ''}`;
      let scope = byScope.get(key);
      if (!scope) byScope.set(key, (scope = { clientId: c.client_id, division: c.division_id === null ? null : Number(c.division_id), list: [] }));
      scope.list.push({ id: c.id, name: c.name, status: c.status });
    }
    for (const s of byScope.values()) publish(s.clientId, DESTINATIONS.controllerHeartbeat, s.list, { division: s.division });
    const doors = await q.heartbeatDoors(db);
    for (const d of doors)
      publish(d.client_id, DESTINATIONS.doorHeartbeat, { id: d.id, name: d.name, doorStatus: d.status }, { division: d.division_id ?? null });
  }
  return { heartbeat, firmwareStep };
}
