// The activities module's face: what other modules may use of it.
export {
  ActivityAction,
  activityInsert,
  recordActivities,
  recordActivity,
  type ActivityRecord,
} from './service.ts';
export { activityRoutes as activitiesModule } from './routes.ts';
export { activitiesExporter } from './data-export.ts';
