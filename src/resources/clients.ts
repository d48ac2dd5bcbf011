// Clients in the console: the declaration (contract/resources/clients.ts) plus the console-only touches.
import { clientsResource, type Client } from '../../contract';
import { fromDeclaration } from './consoleResource';

export const clients = fromDeclaration<Client>(clientsResource, {
  primary: { title: 'Client', width: 300 },
  columns: { code: { width: 120 }, timezone: { width: 180 }, contactEmail: { title: 'Contact', width: 220 }, active: { width: 80 }, updatedAt: { width: 190 } },
  filterPlaceholder: 'Search clients…',
});
