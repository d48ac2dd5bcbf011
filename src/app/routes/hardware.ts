// The Hardware section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// card formats, readers, controllers, interfaces, inputs and outputs.

import { r, fromResource, catalogue, type RouteDef } from './define';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export const HARDWARE_ROUTES: RouteDef[] = [
  ...catalogue(RESOURCE_INDEX.cardFormats, 'Wiegand and smart-card formats the readers decode.'),
  ...catalogue(RESOURCE_INDEX.cardReaders, 'Readers and their doors, with live status.'),
  fromResource(RESOURCE_INDEX.controllers, 'list', 'catalogueList', {
    description: 'Door controllers: their address, their status as their heart-beat reports it, and the firmware they run.',
  }),
  r('hardware', '/hardware/controllers/diagnostic/:ipAddress', 'Controller diagnostic', ['0.5.6.4'], {
    icon: 'desktop',
    hidden: true,
    screen: 'controllerDiagnostic',
    description: 'A controller as it reports itself: status, uptime, firmware, wiring, latest events and a ping.',
  }),
  fromResource(RESOURCE_INDEX.controllers, 'edit', 'catalogueForm', { description: 'Network, time and security settings of a controller.' }),
  r('hardware', '/hardware/controller-hub', 'Controller hub', ['0.5.7.0'], {
    screen: 'controllerHub',
    icon: 'data-connection',
    description: 'Every controller at a glance: live status, firmware and what is wired to it.',
  }),
  ...catalogue(RESOURCE_INDEX.inputs, 'Door contacts, buttons and sensors.'),
  fromResource(RESOURCE_INDEX.interfaces, 'list', 'catalogueList', { description: 'Interface boards and their bus addresses.' }),
  fromResource(RESOURCE_INDEX.interfaces, 'add', 'interfacePreAdd', { hidden: true, description: 'Discover and add an interface board.' }),
  fromResource(RESOURCE_INDEX.interfaces, 'edit', 'catalogueForm', { description: 'Change an interface board.' }),
  fromResource(RESOURCE_INDEX.interfaceSettings, 'edit', 'catalogueForm', { description: 'Timing and supervision settings of an interface.' }),
  // outputs: derived from their declaration, after this section's last row (src/app/routeTable.ts withDeclaredRoutes)
];
