export { AlarmsScreen } from './AlarmsScreen';
export { EventsScreen } from './EventsScreen';
