// The system module's face: health, public configuration, the API's own metadata and the pruning
// job.
export { pruneJob } from './prune.ts';
export { analyticsSink, systemRoutes as systemModule } from './routes.ts';
