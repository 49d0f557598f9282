export * from './users.ts';
export * from './mail.ts';
export * from './activities.ts';
export * from './uploads.ts';
export * from './organizations.ts';
export * from './login-throttles.ts';
export * from './invitations.ts';
export * from './permissions.ts';
