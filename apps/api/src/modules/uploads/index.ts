// The uploads module's face: what other modules may use of it.
export { isOwnUploadUrl } from './service.ts';
export { STORAGE_KEY_PATTERN } from './storage.ts';
export { createLocalDiskStorage, type FileStorage } from './storage.ts';
export { uploadRoutes as uploadsModule } from './routes.ts';
