// The uploads module's face: what other modules may use of it.
export { isOwnUploadUrl } from './service.ts';
export { uploadRoutes as uploadsModule } from './routes.ts';
