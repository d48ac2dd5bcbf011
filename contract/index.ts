export * from './constants';
export * from './privileges';
export * from './watchlist';
export * from './schemas';
export * from './activity';
export * from './api';
export * from './access';
export * from './format';
export * from './realtime';
export * from './realtimeAccess';
export * from './devices';
export * from './journal';
export * from './backups';
export * from './monitor';
export * from './alarmManagement';
export * from './doors';
export * from './sessions';
export * from './ingest';
export * from './edge';
export * from './osdpReaders';
export * from './resources';
export * from './attendanceDaily';
export * from './attendanceFiles';
// ./phone (libphonenumber-js, countries-and-timezones) is imported by path where it is used (machines/phone.selectors):
// through this index it would load with every screen
export * from './mfa';
export * from './iam';
export * from './messages';
