// The security log's face: what other modules may use of it.
import type { App } from '../../context.ts';
import { securityLogRoutes } from './routes.ts';

export {
  originOf,
  recordSecurityEvent,
  securityEventInsert,
  type RequestOrigin,
} from './events.ts';
export { securityLogExporter } from './data-export.ts';
export { pruneSecurityLog } from './prune.ts';

/** The account's security log (issue 20 item 8): /v1/user/security-events/. */
export async function securityLogModule(app: App): Promise<void> {
  await app.register(securityLogRoutes);
}
