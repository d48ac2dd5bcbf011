// The Hardware section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// card formats, readers, controllers, interfaces, inputs and outputs.
import {
  interfacesResource,
  interfaceSettingsResource,
  cardReadersResource,
  controllersResource,
  inputsResource,
  cardFormatsResource,
} from '../../../contract';
import { r, fromResource, catalogue, type RouteDef } from './define';

export const HARDWARE_ROUTES: RouteDef[] = [
  ...catalogue(cardFormatsResource, 'Wiegand and smart-card formats the readers decode.'),
  ...catalogue(cardReadersResource, 'Readers and their doors, with live status.'),
  fromResource(controllersResource, 'list', 'catalogueList', {
    description: 'Door controllers: their address, their status as their heart-beat reports it, and the firmware they run.',
  }),
  r('hardware', '/hardware/controllers/diagnostic/:ipAddress', 'Controller diagnostic', ['0.5.6.4'], {
    icon: 'desktop',
    hidden: true,
    screen: 'controllerDiagnostic',
    description: 'A controller as it reports itself: status, uptime, firmware, wiring, latest events and a ping.',
  }),
  fromResource(controllersResource, 'edit', 'catalogueForm', { description: 'Network, time and security settings of a controller.' }),
  r('hardware', '/hardware/controller-hub', 'Controller hub', ['0.5.7.0'], {
    screen: 'controllerHub',
    icon: 'data-connection',
    description: 'Every controller at a glance: live status, firmware and what is wired to it.',
  }),
  ...catalogue(inputsResource, 'Door contacts, buttons and sensors.'),
  fromResource(interfacesResource, 'list', 'catalogueList', { description: 'Interface boards and their bus addresses.' }),
  fromResource(interfacesResource, 'add', 'interfacePreAdd', { hidden: true, description: 'Discover and add an interface board.' }),
  fromResource(interfacesResource, 'edit', 'catalogueForm', { description: 'Change an interface board.' }),
  fromResource(interfaceSettingsResource, 'edit', 'catalogueForm', { description: 'Timing and supervision settings of an interface.' }),
  // outputs: derived from their declaration, after this section's last row (src/app/routeTable.ts withDeclaredRoutes)
];
