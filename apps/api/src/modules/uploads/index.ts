// The uploads module's face: what other modules may use of it.
export { isOwnUploadUrl } from './service.ts';
export { pruneUploads } from './prune.ts';
export { STORAGE_KEY_PATTERN } from './storage.ts';
export { type FileStorage } from './storage.ts';
export { fileStorageFor } from './storage-for.ts';
export { storageFailure } from './unavailable.ts';
export { uploadRoutes as uploadsModule } from './routes.ts';
export { uploadsExporter } from './data-export.ts';
