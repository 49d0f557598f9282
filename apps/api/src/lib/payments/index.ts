import type { AppConfig } from '../../config.ts';
import type { Clock } from '../clock.ts';
import type { PaymentGateway } from './gateway.ts';
import { SandboxGateway } from './sandbox.ts';
import { StripeGateway } from './stripe.ts';

export * from './gateway.ts';
export { SandboxGateway } from './sandbox.ts';

/** The gateway configuration chooses (PAYMENT_GATEWAY); loadConfig has checked its settings. */
export function createGateway(
  config: Pick<AppConfig, 'payments'>,
  deps: { jwtKey: Uint8Array; clock: Clock },
): PaymentGateway {
  switch (config.payments.gateway) {
    case 'sandbox':
      return new SandboxGateway(deps.jwtKey, deps.clock);
    case 'stripe': {
      const { stripeSecretKey, stripeWebhookSecret, stripeApiBase } = config.payments;
      if (!stripeSecretKey || !stripeWebhookSecret)
        throw new Error(
          'PAYMENT_GATEWAY=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.',
        );
      return new StripeGateway({
        secretKey: stripeSecretKey,
        webhookSecret: stripeWebhookSecret,
        apiBase: stripeApiBase,
        clock: deps.clock,
      });
    }
  }
}
