// The release-notes module's face: release notes, the platform administrators who manage them,
// and each user's "latest release viewed".
export { releaseNoteRoutes as releaseNotesModule } from './routes.ts';
export { insertReleaseNote, isPlatformAdmin } from './service.ts';
export { grantPlatformAdmin } from './platform-admins.ts';
