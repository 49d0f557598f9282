export * from './api';
export * from './hooks';
export * from './modules';
export * from './tenancy';
