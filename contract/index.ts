export * from './constants';
export * from './privileges';
export * from './schemas';
export * from './api';
export * from './access';
