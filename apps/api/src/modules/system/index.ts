// The system module's face: health, public configuration and the API's own metadata.
export { analyticsSink, systemRoutes as systemModule } from './routes.ts';
