// The data-exports module's face: a user's own data and an organization's data as archives, built
// by a background job (issue 11). app.ts registers the routes and starts the job with the workers.
export { dataExportRoutes as dataExportsModule } from './routes.ts';
export { dataExportJob } from './worker.ts';
