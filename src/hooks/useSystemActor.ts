// Views reach the long-lived actors by systemId (STYLE.md "A view"), typed by machines/system.ts.
import { useMemo } from 'react';
import { getSystemActor, type SystemActorId, type SystemActors } from '../../machines/system';
import { wiring } from './wiring';

export function useSystemActor<K extends SystemActorId>(id: K): SystemActors[K] {
  return useMemo(() => getSystemActor(wiring().getSystem(), id), [id]);
}
