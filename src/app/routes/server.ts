// The Server section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// the UI error log, firmware, backups and the installation settings.
import { PRIV } from '../../../contract';
import { r, catalogue, settings, type RouteDef } from './define';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export const SERVER_ROUTES: RouteDef[] = [
  r('server', '/server/ui-errors', 'UI error log', ['0.8.3.0'], {
    icon: 'error',
    screen: 'uiErrors',
    description: "Errors the console caught in operators' browsers.",
  }),
  ...catalogue(RESOURCE_INDEX.firmware, 'Upload firmware and roll it out to controllers.'),
  r('server', '/server/backup-restore', 'Backup and restore', [PRIV.backups], {
    icon: 'archive',
    screen: 'backupRestore',
    description: 'Back up the whole installation and restore a backup.',
  }),
  settings(RESOURCE_INDEX.autoBackup, 'When automatic backups are taken and how many are kept.', { hidden: true }),
  settings(RESOURCE_INDEX.centralProperties, 'How long events and visitor records are kept.'),
  settings(RESOURCE_INDEX.floorPlanProperties, 'Defaults of the floor plan monitor.'),
  settings(RESOURCE_INDEX.companyId, 'The site code printed on credentials.'),
  settings(RESOURCE_INDEX.visitorProperties, 'What a visitor\u2019s registration needs, and how far ahead.'),
];
