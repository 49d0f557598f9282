// The events module's face (issue 21 item 3): what other modules may use of it.
import type { App } from '../../context.ts';
import { eventRoutes } from './routes.ts';

export { recordEvent } from './record.ts';
export { recordActivityWithEvents, recordChangeEvents, type ChangeEvent } from './change.ts';
export { pruneEvents } from './prune.ts';

/** GET /v1/organizations/{orgId}/events/ and GET /v1/webhooks/event-types/. */
export async function eventsModule(app: App): Promise<void> {
  await app.register(eventRoutes);
}
