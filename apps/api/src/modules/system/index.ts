// The system module's face: health, public configuration and the API's own metadata.
export { systemRoutes as systemModule } from './routes.ts';
