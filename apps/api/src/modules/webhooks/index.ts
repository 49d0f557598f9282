// The webhooks module's face (issue 21 item 2): an organization's endpoints and the worker that
// delivers their events. Events and their pending deliveries are written by the events module,
// in the transaction of each change.
import type { FastifyBaseLogger } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import type { Job } from '../../lib/jobs.ts';
import { webhookRoutes } from './routes.ts';
import { webhookWorker } from './worker.ts';

/** /v1/organizations/{orgId}/webhooks/…; makes the app's delivery worker. */
export async function webhooksModule(app: App): Promise<void> {
  const worker = webhookWorker(app.ctx, app.log);
  app.addHook('onClose', async () => worker.close());
  await app.register(webhookRoutes);
}

/** The delivery job of the app's worker, for the runner (app.ts starts it with the others). */
export const webhookJob = (ctx: AppContext, log: FastifyBaseLogger): Job =>
  webhookWorker(ctx, log).job;
