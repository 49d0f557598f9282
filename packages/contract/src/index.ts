export * from './errors.ts';
export * from './messages.ts';
export * from './constants.ts';
export * from './config.ts';
export * from './password-policy.ts';
export * from './auth.ts';
export * from './pagination.ts';
export * from './account.ts';
