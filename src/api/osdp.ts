// Calls of the Hardware screens' OSDP readers panel (issue 46); their actors are the system's (src/system/readActors.ts).
// Every answer is validated with its contract schema (contract/osdpReaders.ts).
import { OsdpComsetAnswer, OsdpFoundAnswer, OsdpReadersAnswer, OsdpRepairAnswer, type OsdpComsetRequest, type OsdpScanScope } from '../../contract';
import { api } from './client';
import { checked } from './endpoints';
import { RESOURCE_INDEX } from '../../contract/resources/catalogueIndex';

/** A controller's OSDP readers (`controllerId`), or the one at a card reader's bus address (`cardReaderId`). */
export type OsdpReadersOf = { controllerId: number } | { cardReaderId: number };

export async function osdpReaders(of: OsdpReadersOf): Promise<OsdpReadersAnswer> {
  const path =
    'controllerId' in of ? `${RESOURCE_INDEX.controllers.api}/${of.controllerId}/osdp-readers` : `${RESOURCE_INDEX.cardReaders.api}/${of.cardReaderId}/osdp`;
  const r = await api.get(path);
  return checked(r.data, OsdpReadersAnswer, path);
}

/** Re-pair the card reader's OSDP reader (audited on the server); a refusal rejects with the server's message. */
export async function repairCardReader(cardReaderId: number): Promise<OsdpRepairAnswer> {
  const path = `${RESOURCE_INDEX.cardReaders.api}/${cardReaderId}/repair`;
  const r = await api.post(path, {});
  return checked(r.data, OsdpRepairAnswer, path);
}

/** Hardware → Interface → pre-add: each connected edge controller scans its OSDP bus for readers not configured yet. */
/** `quick`: addresses 0–15 at the line's speed; `all`: 0–126; `speeds`: 0–126 at every OSDP speed (bounded). */
export async function discoverOsdpReaders(scope: OsdpScanScope = 'quick'): Promise<OsdpFoundAnswer> {
  const query = scope === 'quick' ? '' : scope === 'all' ? '?addresses=all' : '?addresses=all&speeds=all';
  const path = `${RESOURCE_INDEX.interfaces.api}/discover-osdp${query}`;
  const r = await api.get(path);
  return checked(r.data, OsdpFoundAnswer, path);
}

/** Move the card reader's OSDP reader to another bus address and/or speed (COMSET, audited); a refusal rejects. */
export async function comsetCardReader(cardReaderId: number, body: OsdpComsetRequest): Promise<OsdpComsetAnswer> {
  const path = `${RESOURCE_INDEX.cardReaders.api}/${cardReaderId}/comset`;
  const r = await api.post(path, body);
  return checked(r.data, OsdpComsetAnswer, path);
}
