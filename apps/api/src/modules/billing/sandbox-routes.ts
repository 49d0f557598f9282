import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { App, AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { SandboxGateway, checkCard, SANDBOX_CHECKOUT_PATH } from '../../lib/payments/sandbox.ts';
import { checkoutPage, closedPage } from '../../lib/payments/sandbox-page.ts';
import {
  checkoutLinks,
  describeCheckout,
  findCheckoutByRef,
  type CheckoutRow,
} from './checkout-service.ts';
import { receiveGatewayEvent } from './events.ts';

/**
 * The sandbox gateway's hosted page (only when PAYMENT_GATEWAY=sandbox): GET shows the form, POST
 * takes the card. Not part of the portal's API (hidden from the OpenAPI document): it stands in
 * for a card processor's own site. The outcome goes the way a real gateway's would: a signed
 * event through the webhook's handler (events.ts), then the browser is sent back to the portal.
 */

const params = z.strictObject({
  ref: z.string().regex(/^cs_sandbox_[0-9a-f]{24}$/, 'Not a checkout.'),
});
/** The form is a handful of short fields. */
const FORM_LIMIT_BYTES = 8 * 1024;

/** Form fields as strings; anything else (a repeated field, a missing one) reads as empty. */
function formOf(body: unknown) {
  const read = (name: string) => {
    const value = (body as Record<string, unknown> | null)?.[name];
    return typeof value === 'string' ? value : '';
  };
  return {
    number: read('number'),
    expiry: read('expiry'),
    cvc: read('cvc'),
    name: read('name'),
    action: read('action'),
  };
}

/** The page may send the browser back to the portal after the form posts (form-action). */
function pagePolicy(ctx: AppContext): string {
  const portal = new URL(ctx.config.publicUrl).origin;
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    `form-action 'self' ${portal}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function sandboxRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const gateway = ctx.payments;
  if (!(gateway instanceof SandboxGateway)) return;
  const brand = ctx.config.brand;

  // Only this plugin reads forms; the rest of the API stays JSON only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => {
      const form: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(body as string)) {
        const seen = form[key];
        form[key] = seen === undefined ? value : [...[seen].flat(), value];
      }
      done(null, form);
    },
  );

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', pagePolicy(ctx))
      .send(body);

  const load = async (ref: string) => {
    const found = await findCheckoutByRef(ctx, ref);
    if (!found) throw notFound('No such checkout.');
    return found;
  };

  /** The page of a closed checkout: paid, failed (with why) or expired; a link back. */
  const closed = (reply: FastifyReply, checkout: CheckoutRow) => {
    const { successUrl, cancelUrl } = checkoutLinks(ctx, checkout);
    const expired = checkout.status === 'EXPIRED' || checkout.status === 'OPEN';
    const page =
      checkout.status === 'COMPLETE'
        ? {
            title: 'Payment received',
            message: 'This checkout is complete.',
            back: { href: successUrl, label: `Back to ${brand}` },
          }
        : {
            title: 'Payment not completed',
            message: expired
              ? 'This checkout expired before it was paid. Start again.'
              : (checkout.failure_message ?? 'The payment failed.'),
            back: { href: cancelUrl, label: `Back to ${brand}` },
          };
    return html(reply, checkout.status === 'COMPLETE' ? 200 : 409, closedPage(brand, page));
  };

  const isOpen = (checkout: CheckoutRow) =>
    checkout.status === 'OPEN' && checkout.expires_at.getTime() > ctx.clock.now().getTime();

  const pageFields = (
    checkout: CheckoutRow,
    plan: Parameters<typeof describeCheckout>[1],
    ref: string,
  ) => ({
    brand,
    description: checkout.description || describeCheckout(checkout.kind, plan),
    amount: checkout.amount,
    currency: checkout.currency,
    action: `${SANDBOX_CHECKOUT_PATH}${ref}/`,
  });

  app.get('/v1/billing/sandbox/checkout/:ref/', {
    config: {
      access: { public: 'the sandbox’s hosted page: its unguessable id is the credential' },
    },
    schema: { hide: true, params },
    handler: async (request, reply) => {
      const { checkout, plan } = await load(request.params.ref);
      if (!isOpen(checkout)) return closed(reply, checkout);
      return html(reply, 200, checkoutPage(pageFields(checkout, plan, request.params.ref)));
    },
  });

  app.post('/v1/billing/sandbox/checkout/:ref/', {
    config: {
      access: { public: 'the sandbox’s hosted page: its unguessable id is the credential' },
      rateLimit: { max: 60, timeWindow: '1 minute' },
    },
    schema: { hide: true, params },
    handler: async (request, reply) => {
      const { ref } = request.params;
      const { checkout, plan } = await load(ref);
      if (!isOpen(checkout)) return closed(reply, checkout);
      const form = formOf(request.body);
      const { successUrl, cancelUrl } = checkoutLinks(ctx, checkout);
      // Giving up leaves the checkout open until it expires (the buyer may come back to it).
      if (form.action === 'cancel') return reply.redirect(cancelUrl, 303);
      const check = checkCard(form, ctx.clock.now());
      if (!check.ok)
        return html(
          reply,
          400,
          checkoutPage(pageFields(checkout, plan, ref), {
            error: { field: check.field, message: check.message },
            expiry: form.expiry,
            name: form.name,
          }),
        );
      const event = gateway.pay(
        { id: checkout.id, gatewayRef: ref, amount: checkout.amount, currency: checkout.currency },
        check,
      );
      const raw = JSON.stringify(event);
      await receiveGatewayEvent(ctx, raw, gateway.sign(raw), request.log);
      if (event.type === 'checkout.completed') return reply.redirect(successUrl, 303);
      return reply.redirect(`${SANDBOX_CHECKOUT_PATH}${ref}/`, 303);
    },
  });
}
