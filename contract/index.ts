export * from './constants';
export * from './privileges';
export * from './schemas';
export * from './api';
export * from './access';
export * from './format';
export * from './realtime';
export * from './devices';
