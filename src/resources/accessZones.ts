// Access zones in the console: the declaration (contract/resources/accessZones.ts) with one touch (issue 47): the
// Anti-passback column says when a hard zone's doors are soft because their Gatehouse Edge controller is offline (the
// server's edgeSoftDoors and edgeSoftControllers), wrapped in its column so it is read whole at 1440 px and on a phone.
import { accessZonesResource } from '../../contract';
import { zoneApbCell } from './controllers';
import { fromDeclaration } from './consoleResource';

const declared = fromDeclaration<any>(accessZonesResource);

export const accessZones = {
  ...declared,
  columns: declared.columns.map((c) =>
    c.field === 'antiPassback'
      ? { ...c, width: 240, wrap: true, value: (r: Record<string, unknown>) => zoneApbCell(r, c.value ? c.value(r) : String(r.antiPassback ?? '')) }
      : c,
  ),
};
