// `?inspect=1` (or VITE_INSPECT=1) attaches the Stately browser inspector to the whole actor system. The inspector
// package is loaded lazily, so it is not in the main bundle; the events of the first moments (the actors being
// created and started) are buffered meanwhile and handed over once it is there.
import type { InspectionEvent } from 'xstate';

export function inspectorWanted(
  search: string = typeof window === 'undefined' ? '' : window.location.search,
  env: string | undefined = import.meta.env?.VITE_INSPECT,
): boolean {
  return env === '1' || new URLSearchParams(search).get('inspect') === '1';
}

type Load = () => Promise<{ createBrowserInspector: () => { inspect: { next?: (e: InspectionEvent) => void } } }>;
const loadStately: Load = () => import('@statelyai/inspect');

/**
 * An inspect observer forwarding to the Stately inspector, or null when inspection is not asked for. Give it to
 * createActor (with the journal's) so it sees the actors being created too.
 */
export function createInspectorObserver(wanted = inspectorWanted(), load: Load = loadStately): ((e: InspectionEvent) => void) | null {
  if (!wanted) return null;
  const buffer: InspectionEvent[] = [];
  let forward: ((e: InspectionEvent) => void) | null = null;
  load()
    .then(({ createBrowserInspector }) => {
      const inspector = createBrowserInspector();
      forward = (e) => inspector.inspect.next?.(e);
      for (const e of buffer.splice(0)) forward(e);
    })
    .catch((err: unknown) => {
      buffer.length = 0;
      console.warn('The Stately inspector could not be loaded', err);
    });
  return (e) => {
    if (forward) forward(e);
    else buffer.push(e);
  };
}
