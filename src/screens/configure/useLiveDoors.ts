// The selected client's doors as the doors screen and the dashboard show them: the REST list (division, last
// change) with the hardwareStatus actor's live heart-beats (`/hbdoor`) laid over it. A heart-beat that brings a
// state the list has not heard re-reads the list once, so the time of the change follows too.
import { useEffect, useMemo } from 'react';
import { useSelector } from '@xstate/react';
import { DESTINATIONS, type DoorView, type PageOf } from '../../../contract';
import { selectDoors } from '../../../machines/hardwareStatus.selectors';
import { selectClientId } from '../../../machines/session.selectors';
import { useReading } from '../../hooks/useReading';
import { useSystemActor } from '../../hooks/useSystemActor';
import { mergeDoors, unheardChanges, type LiveDoor } from './doorStatus';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export interface LiveDoors {
  /** null until the first list arrives */
  doors: LiveDoor[] | null;
  loading: boolean;
  failed: boolean;
  reload: () => void;
}

const DOOR_NOTICES = { destinations: [`${DESTINATIONS.changes}/doors`, `${DESTINATIONS.changes}/${RESOURCE_INDEX.threatLevels.name}`] } as const;

/** `enabled` false (no door rights): nothing is read, and the doors stay null. */
export function useLiveDoors(enabled = true): LiveDoors {
  const clientId = useSelector(useSystemActor('session'), selectClientId);
  // the last list stays on screen while the next is read (no flash of a spinner on every re-read); another client's goes
  // a door added, edited or deleted anywhere in the client (`/changes/doors`, the catalogue's notice), or a threat
  // level put in force, lowered or reverted (`/changes/threatLevels`: which doors it holds), and every reconnect of the
  // live connection (a notice sent while it was down is not heard: useChangeNotices): read the list again
  const task = useReading<PageOf<DoorView>>('doorsReading', { input: { enabled }, key: `${clientId}:${enabled}`, notices: DOOR_NOTICES });
  const stored = task.output?.items ?? null;
  const live = useSelector(useSystemActor('hardwareStatus'), selectDoors);
  const doors = useMemo(() => (stored ? mergeDoors(stored, live) : null), [stored, live]);
  const unheard = useMemo(() => (stored ? unheardChanges(stored, live) : ''), [stored, live]);
  const { reload } = task;
  useEffect(() => {
    if (unheard && !task.busy) reload();
    // only a new difference re-reads; a failed re-read is not retried in a loop
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unheard]);
  return { doors, loading: task.busy, failed: task.failed, reload };
}
