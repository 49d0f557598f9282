import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the part of the Stripe API the adapter (src/lib/payments/stripe.ts)
 * calls, on a loopback port, spoken to by the real `stripe` SDK (STRIPE_API_BASE): form-encoded
 * requests, JSON objects shaped like Stripe's, `Idempotency-Key` honoured, card errors as 402.
 *
 * The buyer's side is the test's: `pay` does what Stripe's hosted page would (keeps a card, pays
 * or sets up) and returns the webhook deliveries Stripe would then send, signed with the SDK's
 * own helper, for the test to deliver as it likes (twice, out of order). Card numbers only pick
 * an outcome here: like the real page, nothing of the portal ever sends or receives one.
 *
 * Test cards (Stripe's): 4242 4242 4242 4242 pays; 4000 0000 0000 0341 pays but every later
 * charge is declined; 4000 0000 0000 0002 (declined) and 4000 0000 0000 9995 (insufficient
 * funds) fail. Stripe's page refuses a failing card on the spot and sends nothing; here a failure
 * is played as a delayed payment that fails (`checkout.session.completed` unpaid, then
 * `checkout.session.async_payment_failed`), the one way Stripe reports a failed checkout.
 */

export type FakeCard =
  '4242424242424242' | '4000000000000341' | '4000000000000002' | '4000000000009995';
export type DeclineCode = 'insufficient_funds' | 'generic_decline';

/** A form-encoded body or query, with `a[b][0][c]` keys made nested objects and arrays. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

export interface FakeRequest {
  method: string;
  path: string;
  params: Form;
  /** The body (or query) as it came. */
  raw: string;
  idempotencyKey: string | undefined;
  status: number;
  /** The JSON answered, as sent. */
  response: string;
}

/** One webhook delivery: the exact body and its `Stripe-Signature` header. */
export interface WebhookDelivery {
  type: string;
  eventId: string;
  body: string;
  signature: string;
}

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  body: Json;
}

class FakeError extends Error {
  readonly status: number;
  readonly body: Json;
  constructor(status: number, error: Json) {
    super(String(error.message));
    this.status = status;
    this.body = { error };
  }
}

const CARDS: Record<
  FakeCard,
  { last4: string; outcome: 'ok' | DeclineCode; later: 'ok' | DeclineCode }
> = {
  '4242424242424242': { last4: '4242', outcome: 'ok', later: 'ok' },
  '4000000000000341': { last4: '0341', outcome: 'ok', later: 'generic_decline' },
  '4000000000000002': { last4: '0002', outcome: 'generic_decline', later: 'generic_decline' },
  '4000000000009995': { last4: '9995', outcome: 'insufficient_funds', later: 'insufficient_funds' },
};

const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  insufficient_funds: 'Your card has insufficient funds.',
  generic_decline: 'Your card was declined.',
};

const randomId = (prefix: string) => `${prefix}${crypto.randomBytes(12).toString('hex')}`;

/** URLSearchParams into nested keys: `line_items[0][price_data][unit_amount]`, `expand[0]`. */
export function parseForm(text: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = (key.match(/^[^[\]]+|\[[^\]]*\]/g) ?? [key]).map((part) =>
      part.startsWith('[') ? part.slice(1, -1) : part,
    );
    let node: Form = root;
    parts.forEach((part, i) => {
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (i === parts.length - 1) node[name] = value;
      else {
        const next = node[name];
        node = (
          typeof next === 'object' && !Array.isArray(next) ? next : (node[name] = {})
        ) as Form;
      }
    });
  }
  return arraysIn(root) as Form;
}

/** Objects keyed 0…n-1 become arrays. */
function arraysIn(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((k) => [k, arraysIn(value[k]!)] as const);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}

/** The string at a path of a parsed form (undefined when absent or not a string). */
export function formField(
  form: FormValue | undefined,
  ...path: (string | number)[]
): string | undefined {
  let node: FormValue | undefined = form;
  for (const part of path) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = Array.isArray(node) ? node[Number(part)] : node[String(part)];
  }
  return typeof node === 'string' ? node : undefined;
}

const invalid = (message: string, fields: Json = {}) =>
  new FakeError(400, { type: 'invalid_request_error', message, ...fields });
const missing = (kind: string, id: string, param?: string) =>
  new FakeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    ...(param && { param }),
  });

export class StripeFake {
  readonly requests: FakeRequest[] = [];
  readonly customers = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly paymentIntents = new Map<string, Json>();
  readonly setupIntents = new Map<string, Json>();
  readonly paymentMethods = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  /** The clock Stripe reads (signatures, `created`, `expires_at` checks); the test's by default. */
  now: () => number = () => Date.now();

  private readonly server: http.Server;
  private readonly secretKey: string;
  private readonly webhookSecret: string;
  private readonly webhooks = new Stripe('sk_test_signer').webhooks;
  private readonly idempotent = new Map<string, { fingerprint: string; answer: Answer }>();
  /** What each PaymentIntent has had refunded (minor units). */
  private readonly refunded = new Map<string, number>();
  /** How a kept card behaves when charged later. */
  private readonly later = new Map<string, 'ok' | DeclineCode>();
  /** Answers still to be lost (`dropAnswers`). */
  private readonly drops: { path: string; keyPrefix: string; count: number }[] = [];
  /** What a session's PaymentIntent or SetupIntent will carry (payment_intent_data…). */
  private readonly intentData = new Map<string, Form>();
  private port = 0;

  private constructor(options: { secretKey: string; webhookSecret: string }) {
    this.secretKey = options.secretKey;
    this.webhookSecret = options.webhookSecret;
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
      });
    });
  }

  static async start(options: { secretKey: string; webhookSecret: string }): Promise<StripeFake> {
    const fake = new StripeFake(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** What STRIPE_API_BASE is set to. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The requests made to one method and path (a prefix with a trailing `*`). */
  requestsTo(method: string, path: string): FakeRequest[] {
    return this.requests.filter(
      (r) =>
        r.method === method &&
        (path.endsWith('*') ? r.path.startsWith(path.slice(0, -1)) : r.path === path),
    );
  }

  // ---- the buyer's side ----------------------------------------------------------------------

  /**
   * The buyer pays (payment mode) or keeps a card (setup mode) on the session's page: the
   * deliveries Stripe then sends. A failing card in setup mode is refused on the page: nothing.
   */
  pay(sessionId: string, card: FakeCard): WebhookDelivery[] {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (session.status !== 'open')
      throw new Error(`session ${sessionId} is ${String(session.status)}`);
    const { last4, outcome, later } = CARDS[card];
    const customer = session.customer as string | null;
    const data = this.intentData.get(sessionId) ?? {};
    const metadata = (data.metadata as Json | undefined) ?? {};
    if (session.mode === 'setup') {
      if (outcome !== 'ok') return [];
      const method = this.keepCard(last4, customer, later);
      const setup = this.setupIntents.get(session.setup_intent as string)!;
      Object.assign(setup, { status: 'succeeded', payment_method: method.id });
      Object.assign(session, { status: 'complete', payment_status: 'no_payment_required' });
      return [this.event('checkout.session.completed', session)];
    }
    const method = this.keepCard(last4, outcome === 'ok' ? customer : null, later);
    const intent = this.paymentIntent({
      amount: session.amount_total,
      currency: session.currency,
      customer,
      payment_method: method.id,
      description: data.description ?? null,
      metadata,
      setup_future_usage: 'off_session',
      ...(outcome === 'ok'
        ? { status: 'succeeded' }
        : { status: 'requires_payment_method', last_payment_error: this.declineOf(outcome) }),
    });
    session.payment_intent = intent.id;
    session.status = 'complete';
    if (outcome === 'ok') {
      session.payment_status = 'paid';
      return [this.event('checkout.session.completed', session)];
    }
    session.payment_status = 'unpaid';
    return [
      this.event('checkout.session.completed', session),
      this.event('checkout.session.async_payment_failed', session),
    ];
  }

  /** The session's time runs out unpaid. */
  expire(sessionId: string): WebhookDelivery[] {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    session.status = 'expired';
    return [this.event('checkout.session.expired', session)];
  }

  /** From now on, charging this kept card fails with `decline` (null: it pays again). */
  failCharges(paymentMethodId: string, decline: DeclineCode | null): void {
    this.later.set(paymentMethodId, decline ?? 'ok');
  }

  /**
   * A fault after the work: the next `count` requests to `path` are carried out (a charge is
   * made, its answer kept for the idempotency key) but answered 500 (Stripe's `api_error`), so
   * the caller cannot know whether it happened. Only requests whose Idempotency-Key starts with
   * `keyPrefix`, when given. (A dropped connection would not do: the SDK retries one by itself.)
   */
  dropAnswers(path: string, count = 1, keyPrefix = ''): void {
    this.drops.push({ path, keyPrefix, count });
  }

  /** A signed event of any type about any object (an event the portal does not handle). */
  event(type: string, object: Json): WebhookDelivery {
    const created = Math.floor(this.now() / 1000);
    const body = JSON.stringify({
      id: randomId('evt_'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created,
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
    return {
      type,
      eventId: (JSON.parse(body) as { id: string }).id,
      body,
      signature: this.sign(body, { timestamp: created }),
    };
  }

  /** A `Stripe-Signature` header over a body (the webhook secret and now, unless told). */
  sign(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
    return this.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      timestamp: options.timestamp ?? Math.floor(this.now() / 1000),
    });
  }

  // ---- the API -------------------------------------------------------------------------------

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    const method = req.method ?? 'GET';
    const raw = method === 'GET' ? url.search.slice(1) : body;
    const key = req.headers['idempotency-key'] as string | undefined;
    const send = (answer: Answer, replayed = false) => {
      const json = JSON.stringify(answer.body);
      const drop = this.drops.find(
        (d) => d.count > 0 && d.path === url.pathname && (key ?? '').startsWith(d.keyPrefix),
      );
      const dropped = drop !== undefined;
      if (drop) drop.count--;
      this.requests.push({
        method,
        path: url.pathname,
        params: parseForm(raw),
        raw,
        idempotencyKey: key,
        status: dropped ? 500 : answer.status,
        response: json,
      });
      if (dropped) {
        res.writeHead(500, { 'content-type': 'application/json', 'request-id': randomId('req_') });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Something went wrong.' } }));
        return;
      }
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'request-id': randomId('req_'),
        ...(replayed && { 'idempotent-replayed': 'true' }),
      });
      res.end(json);
    };

    if (method === 'GET' && url.pathname.startsWith('/pay/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Stripe Checkout (local fake)</title>');
      return;
    }
    if (req.headers.authorization !== `Bearer ${this.secretKey}`)
      return send({
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } },
      });
    const fingerprint = `${method} ${url.pathname} ${raw}`;
    if (method === 'POST' && key) {
      const earlier = this.idempotent.get(key);
      if (earlier && earlier.fingerprint !== fingerprint)
        return send({
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          },
        });
      if (earlier) return send(earlier.answer, true);
    }
    let answer: Answer;
    try {
      answer = { status: 200, body: this.route(method, url.pathname, parseForm(raw)) };
    } catch (error) {
      if (!(error instanceof FakeError)) throw error;
      answer = { status: error.status, body: error.body };
    }
    if (method === 'POST' && key) this.idempotent.set(key, { fingerprint, answer });
    send(answer);
  }

  private route(method: string, path: string, params: Form): Json {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') return this.createCustomer(params);
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(params);
    if (method === 'POST' && path === '/v1/payment_intents')
      return this.createPaymentIntent(params);
    if (method === 'POST' && path === '/v1/refunds') return this.createRefund(params);
    if (method === 'GET' && (match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const intent = this.paymentIntents.get(match[1]!);
      if (!intent) throw missing('payment_intent', match[1]!);
      return this.expanded(intent, params);
    }
    if (method === 'GET' && (match = /^\/v1\/setup_intents\/([^/]+)$/.exec(path))) {
      const setup = this.setupIntents.get(match[1]!);
      if (!setup) throw missing('setup_intent', match[1]!);
      return this.expanded(setup, params);
    }
    if (method === 'GET' && (match = /^\/v1\/payment_methods\/([^/]+)$/.exec(path))) {
      const card = this.paymentMethods.get(match[1]!);
      if (!card) throw missing('payment_method', match[1]!);
      return structuredClone(card);
    }
    if (method === 'POST' && (match = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path))) {
      const card = this.paymentMethods.get(match[1]!);
      if (!card) throw missing('payment_method', match[1]!);
      if (!card.customer)
        throw invalid(
          'The payment method you provided is not attached to a customer so detachment is impossible.',
        );
      card.customer = null;
      return structuredClone(card);
    }
    throw new FakeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  private createCustomer(params: Form): Json {
    const customer: Json = {
      id: randomId('cus_'),
      object: 'customer',
      created: Math.floor(this.now() / 1000),
      email: formField(params, 'email') ?? null,
      livemode: false,
      metadata: params.metadata ?? {},
      name: null,
    };
    this.customers.set(customer.id as string, customer);
    return structuredClone(customer);
  }

  private createSession(params: Form): Json {
    const mode = formField(params, 'mode');
    if (mode !== 'payment' && mode !== 'setup')
      throw invalid('mode must be payment or setup (in this fake).', { param: 'mode' });
    const customer = formField(params, 'customer') ?? null;
    if (customer && !this.customers.has(customer)) throw missing('customer', customer, 'customer');
    for (const param of ['success_url', 'cancel_url'])
      if (!formField(params, param)) throw invalid(`Missing required param: ${param}.`, { param });
    const nowS = Math.floor(this.now() / 1000);
    const expiresAt = Number(formField(params, 'expires_at') ?? nowS + 86_400);
    if (expiresAt < nowS + 1800 || expiresAt > nowS + 86_400)
      throw invalid(
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from now.',
        {
          param: 'expires_at',
        },
      );
    const id = randomId('cs_test_');
    let amount: number | null = null;
    let currency = formField(params, 'currency') ?? null;
    if (mode === 'payment') {
      const item = (k: string[]) => formField(params, 'line_items', 0, ...k);
      const unit = Number(item(['price_data', 'unit_amount']));
      currency = item(['price_data', 'currency']) ?? null;
      if (
        !Number.isInteger(unit) ||
        unit < 0 ||
        !currency ||
        !item(['price_data', 'product_data', 'name'])
      )
        throw invalid(
          'line_items[0][price_data] needs currency, unit_amount and product_data[name].',
          {
            param: 'line_items',
          },
        );
      amount = unit * Number(item(['quantity']) ?? 1);
      this.intentData.set(id, (params.payment_intent_data as Form | undefined) ?? {});
    } else if (!currency) {
      throw invalid('currency is required in setup mode (in this fake).', { param: 'currency' });
    }
    let setupIntent: string | null = null;
    if (mode === 'setup') {
      const data = (params.setup_intent_data as Form | undefined) ?? {};
      const setup: Json = {
        id: randomId('seti_'),
        object: 'setup_intent',
        created: nowS,
        customer,
        description: formField(data, 'description') ?? null,
        livemode: false,
        metadata: data.metadata ?? {},
        payment_method: null,
        status: 'requires_payment_method',
        usage: 'off_session',
      };
      this.setupIntents.set(setup.id as string, setup);
      setupIntent = setup.id as string;
    }
    const session: Json = {
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: formField(params, 'cancel_url'),
      client_reference_id: formField(params, 'client_reference_id') ?? null,
      created: nowS,
      currency,
      customer,
      expires_at: expiresAt,
      livemode: false,
      metadata: params.metadata ?? {},
      mode,
      payment_intent: null,
      allowed_payment_method_types: params.allowed_payment_method_types ?? null,
      payment_method_types: params.allowed_payment_method_types ?? ['card'],
      payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
      setup_intent: setupIntent,
      status: 'open',
      success_url: formField(params, 'success_url'),
      url: `${this.url}/pay/${id}`,
    };
    this.sessions.set(id, session);
    return structuredClone(session);
  }

  /** An off-session charge of a kept card: it pays, or fails as the card was set to. */
  private createPaymentIntent(params: Form): Json {
    const amount = Number(formField(params, 'amount'));
    const currency = formField(params, 'currency');
    if (!Number.isInteger(amount) || amount < 1 || !currency)
      throw invalid('amount (a positive integer) and currency are required.');
    const methodId = formField(params, 'payment_method');
    const method = methodId ? this.paymentMethods.get(methodId) : undefined;
    if (!methodId || !method) throw missing('payment_method', methodId ?? '', 'payment_method');
    const customer = formField(params, 'customer') ?? null;
    if (method.customer && method.customer !== customer)
      throw invalid(
        'The provided PaymentMethod belongs to another Customer: pass its customer to charge it.',
        { param: 'customer' },
      );
    if (!method.customer)
      throw invalid(
        'The provided PaymentMethod is not attached to a Customer and cannot be reused.',
        {
          param: 'payment_method',
        },
      );
    const confirm = formField(params, 'confirm') === 'true';
    const later = this.later.get(methodId) ?? 'ok';
    const intent = this.paymentIntent({
      amount,
      currency,
      customer,
      payment_method: methodId,
      description: formField(params, 'description') ?? null,
      metadata: params.metadata ?? {},
      off_session: formField(params, 'off_session') === 'true',
      ...(!confirm
        ? { status: 'requires_confirmation' }
        : later === 'ok'
          ? { status: 'succeeded' }
          : { status: 'requires_payment_method', last_payment_error: this.declineOf(later) }),
    });
    if (confirm && later !== 'ok')
      throw new FakeError(402, {
        ...this.declineOf(later),
        payment_intent: structuredClone(intent),
        request_log_url: `${this.url}/logs/${randomId('req_')}`,
      });
    return structuredClone(intent);
  }

  /**
   * A refund of a paid PaymentIntent (or its charge, `ch_` + the intent's suffix): all that is
   * left when no amount is given; more than is left is refused as Stripe does.
   */
  private createRefund(params: Form): Json {
    const chargeId = formField(params, 'charge');
    const intentId = formField(params, 'payment_intent') ?? chargeId?.replace(/^ch_/, 'pi_');
    const intent = intentId ? this.paymentIntents.get(intentId) : undefined;
    if (!intentId || !intent)
      throw missing(chargeId ? 'charge' : 'payment_intent', chargeId ?? intentId ?? '');
    if (intent.status !== 'succeeded')
      throw invalid('This PaymentIntent does not have a successful charge to refund.', {
        code: 'charge_not_refundable',
      });
    const refunded = this.refunded.get(intentId) ?? 0;
    const left = Number(intent.amount) - refunded;
    if (left <= 0)
      throw invalid(`Charge for ${intentId} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    const amount = Number(formField(params, 'amount') ?? left);
    if (!Number.isInteger(amount) || amount < 1)
      throw invalid('amount must be a positive integer.', { param: 'amount' });
    if (amount > left)
      throw invalid(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    this.refunded.set(intentId, refunded + amount);
    const refund: Json = {
      id: randomId('re_'),
      object: 'refund',
      amount,
      charge: intentId.replace(/^pi_/, 'ch_'),
      created: Math.floor(this.now() / 1000),
      currency: intent.currency,
      metadata: params.metadata ?? {},
      payment_intent: intentId,
      reason: null,
      status: 'succeeded',
    };
    this.refunds.set(refund.id as string, refund);
    return structuredClone(refund);
  }

  private keepCard(last4: string, customer: string | null, later: 'ok' | DeclineCode): Json {
    const method: Json = {
      id: randomId('pm_'),
      object: 'payment_method',
      billing_details: { email: null, name: 'Test Buyer', phone: null },
      card: {
        brand: 'visa',
        country: 'US',
        exp_month: 12,
        exp_year: new Date(this.now()).getUTCFullYear() + 4,
        funding: 'credit',
        last4,
      },
      created: Math.floor(this.now() / 1000),
      customer,
      livemode: false,
      metadata: {},
      type: 'card',
    };
    this.paymentMethods.set(method.id as string, method);
    this.later.set(method.id as string, later);
    return method;
  }

  private paymentIntent(fields: Json): Json {
    const intent: Json = {
      id: randomId('pi_'),
      object: 'payment_intent',
      created: Math.floor(this.now() / 1000),
      last_payment_error: null,
      livemode: false,
      ...fields,
    };
    this.paymentIntents.set(intent.id as string, intent);
    return intent;
  }

  private declineOf(code: DeclineCode): Json {
    return {
      type: 'card_error',
      code: 'card_declined',
      decline_code: code,
      message: DECLINE_MESSAGES[code],
    };
  }

  /** An intent with its payment method expanded when asked (`expand[]=payment_method`). */
  private expanded(intent: Json, params: Form): Json {
    const copy = structuredClone(intent);
    const expand = params.expand;
    const wanted = Array.isArray(expand) ? expand : typeof expand === 'string' ? [expand] : [];
    if (wanted.includes('payment_method') && typeof copy.payment_method === 'string')
      copy.payment_method = structuredClone(this.paymentMethods.get(copy.payment_method) ?? null);
    return copy;
  }
}

/** Starts a fake on a free loopback port. */
export function startStripeFake(options: {
  secretKey: string;
  webhookSecret: string;
}): Promise<StripeFake> {
  return StripeFake.start(options);
}
