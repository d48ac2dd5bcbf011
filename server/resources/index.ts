// Server hooks per catalogue resource (the declaration in contract/resources never imports these).
import type { ResourceHooks } from '../crud/hooks';
import { cardFormatHooks, scheduleHooks } from './access';
import { clientHooks } from './clients';
import { identityHooks } from './identities';
import { visitorHooks } from './visitors';

type Publish = (clientId: number, destination: string, body: unknown) => void;

export const resourceHooks = (publish?: Publish): Record<string, ResourceHooks> => ({
  clients: clientHooks,
  identities: identityHooks,
  visitors: visitorHooks(publish),
  schedules: scheduleHooks,
  cardFormats: cardFormatHooks,
});
