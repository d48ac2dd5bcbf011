// The Server section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// the UI error log, firmware, backups and the installation settings.
import {
  PRIV,
  visitorPropertiesResource,
  centralPropertiesResource,
  floorPlanPropertiesResource,
  companyIdResource,
  autoBackupResource,
  firmwareResource,
} from '../../../contract';
import { r, catalogue, settings, type RouteDef } from './define';

export const SERVER_ROUTES: RouteDef[] = [
  r('server', '/server/ui-errors', 'UI error log', ['0.8.3.0'], {
    icon: 'error',
    screen: 'uiErrors',
    description: "Errors the console caught in operators' browsers.",
  }),
  ...catalogue(firmwareResource, 'Upload firmware and roll it out to controllers.'),
  r('server', '/server/backup-restore', 'Backup and restore', [PRIV.backups], {
    icon: 'archive',
    screen: 'backupRestore',
    description: 'Back up the whole installation and restore a backup.',
  }),
  settings(autoBackupResource, 'When automatic backups are taken and how many are kept.', { hidden: true }),
  settings(centralPropertiesResource, 'How long events and visitor records are kept.'),
  settings(floorPlanPropertiesResource, 'Defaults of the floor plan monitor.'),
  settings(companyIdResource, 'The site code printed on credentials.'),
  settings(visitorPropertiesResource, 'What a visitor\u2019s registration needs, and how far ahead.'),
];
