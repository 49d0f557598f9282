import {
  appParamsSchema,
  balanceHistoryQuerySchema,
  balanceSchema,
  balanceServicePageSchema,
  balanceServiceQuerySchema,
  cardTopUpSchema,
  chargeCreateSchema,
  chargeResultSchema,
  checkoutSchema,
  errorBodySchema,
  fundPackageChoiceSchema,
  fundPackageListQuerySchema,
  fundPackagePageSchema,
  invoiceListQuerySchema,
  invoicePageSchema,
  invoiceParamsSchema,
  ledgerEntryPageSchema,
  ledgerEntryParamsSchema,
  ledgerEntrySchema,
  orgParamsSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { pageOf, offsetOf, type PageQuery } from '../../lib/pagination.ts';
import { invoicePdfFileName, renderInvoicePdf } from '../../lib/pdf/invoice-pdf.ts';
import { requireActor } from '../access/index.ts';
import { pdfSeller, sendPdf } from './pdf-reply.ts';
import { readBalance } from './account.ts';
import { billedToBlock } from './billing-details.ts';
import {
  fingerprintOf,
  idempotencyHeaders,
  idempotencyKeyOf,
  idempotent,
  withIdempotency,
} from './idempotency.ts';
import { findInvoice, listInvoices, toInvoiceDto } from './invoices.ts';
import { listEntries } from './ledger.ts';
import { topUpWithCard } from './top-up-service.ts';
import {
  chargeBalance,
  listBalanceServices,
  listFundPackages,
  refundCharge,
  startTopUpCheckout,
  toBalanceServiceDto,
  toFundPackageDto,
} from './wallet-service.ts';

const tags = ['billing'];
const security = [{ bearerAuth: [] }];
const billing = { organization: 'orgId', permission: 'organization.billing' } as const;
const signedIn = { signedIn: 'the same for everyone signed in' };
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/** A page of a short list read whole (packages, services: a handful of rows). */
const pageOfAll = <T>(all: T[], query: PageQuery) =>
  pageOf(all.length, query, all.slice(offsetOf(query), offsetOf(query) + query.limit));

/**
 * Billing II (spec §7 "Billing"): fund packages, the balance and its history, the services that
 * draw on it, charges and refunds, and invoices with their PDF.
 */
export async function walletRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/fund-packages/', {
    config: { access: signedIn },
    schema: {
      tags,
      summary: 'The fund packages: credit for the balance, bought through a checkout (10 a page)',
      security,
      querystring: fundPackageListQuerySchema,
      response: { 200: fundPackagePageSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) =>
      pageOfAll((await listFundPackages(ctx.db)).map(toFundPackageDto), request.query),
  });

  app.get('/v1/plans/balance/config/:app/', {
    config: { access: signedIn },
    schema: {
      tags,
      summary:
        'The services of an app profile that draw on the balance: unit prices, and the plans that include them',
      security,
      params: appParamsSchema,
      querystring: balanceServiceQuerySchema,
      response: { 200: balanceServicePageSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) =>
      pageOfAll(
        (await listBalanceServices(ctx.db, request.params.app)).map(toBalanceServiceDto),
        request.query,
      ),
  });

  app.post('/v1/organizations/:orgId/balance/checkout/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'Open a hosted payment page for a fund package (Idempotency-Key required); the credit is added when the gateway reports the payment',
      security,
      params: orgParamsSchema,
      headers: idempotencyHeaders,
      body: fundPackageChoiceSchema,
      response: { 201: checkoutSchema, ...errors, 409: errorBodySchema, 503: errorBodySchema },
    },
    handler: async (request, reply) =>
      idempotent(ctx, request, reply, () =>
        startTopUpCheckout(ctx, requireActor(request), request.body.fund_package_id),
      ),
  });

  app.post('/v1/organizations/:orgId/balance/top-ups/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'Buy a fund package with one of the organization’s saved cards, at once (Idempotency-Key required): the card is charged, the invoice made and the credit added; answers the ledger entry',
      security,
      params: orgParamsSchema,
      headers: idempotencyHeaders,
      body: cardTopUpSchema,
      response: { 201: ledgerEntrySchema, ...errors, 402: errorBodySchema, 409: errorBodySchema },
    },
    handler: async (request, reply) => {
      const actor = requireActor(request);
      // A replay (same key, same request) answers the first entry and charges nothing.
      const key = idempotencyKeyOf(request);
      const answer = await withIdempotency(
        ctx,
        {
          organizationId: actor.organization.id,
          userId: actor.userId,
          key,
          fingerprint: fingerprintOf(request),
        },
        async () => ({ status: 201, body: await topUpWithCard(ctx, actor, request.body, key) }),
      );
      return reply.code(answer.status).send(answer.body);
    },
  });

  app.get('/v1/organizations/:orgId/balance/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'The organization’s available balance',
      security,
      params: orgParamsSchema,
      response: { 200: balanceSchema, ...errors },
    },
    handler: async (request) => readBalance(ctx.db, requireActor(request).organization.id),
  });

  // The specification writes this path without the trailing slash; the router answers both forms.
  app.get('/v1/organizations/:orgId/balance/history/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'The balance’s movements, newest first: from_date and to_date (YYYY-MM-DD, UTC, inclusive), type',
      security,
      params: orgParamsSchema,
      querystring: balanceHistoryQuerySchema,
      response: { 200: ledgerEntryPageSchema, ...errors },
    },
    handler: async (request) =>
      listEntries(ctx.db, requireActor(request).organization.id, request.query),
  });

  app.post('/v1/organizations/:orgId/balance/charges/', {
    config: {
      access: { organization: 'orgId', permission: 'organization.balance.charge' },
    },
    schema: {
      tags,
      summary:
        'Draw a service × quantity from the balance at its unit price (Idempotency-Key required: a replay answers the first charge, 200); 402 INSUFFICIENT_BALANCE when it would go below zero',
      security,
      params: orgParamsSchema,
      headers: idempotencyHeaders,
      body: chargeCreateSchema,
      response: {
        200: chargeResultSchema,
        201: chargeResultSchema,
        ...errors,
        402: errorBodySchema,
        409: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const key = idempotencyKeyOf(request);
      const answer = await chargeBalance(ctx, requireActor(request), request.body, key);
      return reply.code(answer.status).send(answer.body);
    },
  });

  app.post('/v1/organizations/:orgId/balance/history/:entryId/refund/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'Give a charge back to the balance, in full, once (409 NOT_REFUNDABLE otherwise)',
      security,
      params: ledgerEntryParamsSchema,
      response: { 201: ledgerEntrySchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await refundCharge(ctx, requireActor(request), request.params.entryId)),
  });

  app.get('/v1/organizations/:orgId/invoices/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'Every payment as a numbered invoice, newest first (10 a page)',
      security,
      params: orgParamsSchema,
      querystring: invoiceListQuerySchema,
      response: { 200: invoicePageSchema, ...errors },
    },
    handler: async (request) =>
      listInvoices(ctx.db, requireActor(request).organization.id, request.query),
  });

  app.get('/v1/organizations/:orgId/invoices/:invoiceId/pdf/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'An invoice as a PDF document (a download)',
      security,
      params: invoiceParamsSchema,
      // The document itself is not JSON; errors answer the usual shape.
    },
    handler: async (request, reply) => {
      const actor = requireActor(request);
      const row = await findInvoice(ctx.db, actor.organization.id, request.params.invoiceId);
      if (!row) throw notFound('No such invoice.');
      const invoice = toInvoiceDto(row);
      const pdf = await renderInvoicePdf({
        number: invoice.number,
        issuedAt: row.created_at,
        status: invoice.status,
        description: invoice.description,
        currency: invoice.currency,
        lines: invoice.lines,
        subtotal: invoice.subtotal,
        total: invoice.total,
        seller: pdfSeller(ctx.config),
        // The buyer's details as they were when it was issued; none then: the name alone.
        billedTo: billedToBlock(row.billed_to, actor.organization.name),
      });
      return sendPdf(reply, invoicePdfFileName(invoice.number), pdf);
    },
  });
}
