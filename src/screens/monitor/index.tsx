export { AlarmsScreen } from './AlarmsScreen';
export { EventsScreen } from './EventsScreen';
export { OperatorSessionsScreen, ServiceAccountSessionsScreen } from './SessionsScreen';
