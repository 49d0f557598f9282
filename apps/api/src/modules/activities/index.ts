// The activities module's face: what other modules may use of it.
export { ActivityAction, recordActivity } from './service.ts';
export { activityRoutes as activitiesModule } from './routes.ts';
