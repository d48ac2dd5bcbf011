export { ProfileScreen } from './ProfileScreen';
export { ForbiddenScreen, NotFoundScreen, LaterReleaseScreen, AttendanceScreen } from './InfoScreens';
export { BackupRestoreScreen } from './BackupRestoreScreen';
