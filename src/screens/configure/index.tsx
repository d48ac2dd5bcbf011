export { DoorsScreen } from './DoorsScreen';
export { DivisionsScreen } from './DivisionsScreen';
export { AlarmZoneScreen } from './AlarmZoneScreen';
export { DoorQrScreen } from './DoorQrScreen';
export { CalendarScreen } from './CalendarScreen';
export { ControllerDiagnosticScreen } from './ControllerDiagnosticScreen';
export { InterfacePreAddScreen } from './InterfacePreAddScreen';
