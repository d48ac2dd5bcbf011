// Who hears a resource's change notice (`/changes/<resource>`) besides the consoles it is published to: a table of
// subscribers by resource, made where the subsystems are (server/app.ts), instead of an if chain over destination
// strings (issue 48). A subsystem added is a row of the table.
import type { Publish } from './monitor/pipeline';

export interface ChangeSubscriber {
  /** The resources whose changes it hears (contract/resources names: `doors`, `logicalBlocks`, …). */
  resources: readonly string[];
  /** Told the tenant and what changed (the notice's resource and row id: 0 when it names no one row, as an import). */
  hear: (clientId: number, change: { resource: string; id?: number }) => void;
}

/** A publish of change notices that also tells each subscriber of the changed resource, after the consoles. */
export function changeNotices(publish: Publish, subscribers: readonly ChangeSubscriber[]) {
  const byResource = new Map<string, Array<ChangeSubscriber['hear']>>();
  for (const s of subscribers) for (const r of s.resources) byResource.set(r, [...(byResource.get(r) ?? []), s.hear]);
  return (clientId: number, destination: string, body: unknown): void => {
    publish(clientId, destination, body);
    const resource = /^\/changes\/(.+)$/.exec(destination)?.[1];
    if (!resource) return;
    const id = (body as { id?: unknown } | null)?.id;
    for (const hear of byResource.get(resource) ?? []) hear(clientId, { resource, id: typeof id === 'number' ? id : undefined });
  };
}
