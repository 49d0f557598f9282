// The notifications module's face: what other modules may use of it.
export { createNotification, NOTIFICATION_CHANNEL, type NewNotification } from './create.ts';
