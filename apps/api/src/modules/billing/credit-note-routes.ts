import {
  adminInvoiceParamsSchema,
  creditNoteListQuerySchema,
  creditNotePageSchema,
  creditNoteParamsSchema,
  creditNoteSchema,
  errorBodySchema,
  invoiceRefundSchema,
  orgParamsSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { creditNotePdfFileName, renderCreditNotePdf } from '../../lib/pdf/credit-note-pdf.ts';
import { requireActor, requireAuth } from '../access/index.ts';
import { billedToBlock } from './billing-details.ts';
import { pdfSeller, sendPdf } from './pdf-reply.ts';
import {
  findCreditNote,
  listCreditNotes,
  organizationOfInvoice,
  refundInvoice,
  toCreditNoteDto,
} from './credit-notes.ts';
import {
  fingerprintOf,
  idempotencyHeaders,
  idempotencyKeyOf,
  withIdempotency,
} from './idempotency.ts';
import { billing, errors, security, tags } from './route-kit.ts';

/**
 * Credit notes (issue 22 item 7): the platform's operators refund a paid invoice, which issues a
 * numbered credit note; the organization lists its credit notes and downloads each as a PDF.
 */
export async function creditNoteRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/admin/invoices/:invoiceId/refunds/', {
    config: { access: { platformAdmin: 'refund payments' } },
    schema: {
      tags,
      summary:
        'Give money of a paid invoice back to the card (all that is left unless `amount` says less; Idempotency-Key required): issues a credit note, and for a fund package takes its credit back from the balance',
      security,
      params: adminInvoiceParamsSchema,
      headers: idempotencyHeaders,
      body: invoiceRefundSchema,
      response: {
        201: creditNoteSchema,
        ...errors,
        402: errorBodySchema,
        409: errorBodySchema,
        503: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const userId = requireAuth(request).userId;
      const key = idempotencyKeyOf(request);
      const organizationId = await organizationOfInvoice(ctx.db, request.params.invoiceId);
      // Money moves once per key: a replay answers the first credit note.
      const answer = await withIdempotency(
        ctx,
        { organizationId, userId, key, fingerprint: fingerprintOf(request) },
        async () => ({
          status: 201,
          body: await refundInvoice(ctx, {
            organizationId,
            invoiceId: request.params.invoiceId,
            userId,
            body: request.body,
            idempotencyKey: key,
          }),
        }),
      );
      return reply.code(answer.status).send(answer.body);
    },
  });

  app.get('/v1/organizations/:orgId/credit-notes/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'The credit notes (refunds of invoices), newest first (10 a page)',
      security,
      params: orgParamsSchema,
      querystring: creditNoteListQuerySchema,
      response: { 200: creditNotePageSchema, ...errors },
    },
    handler: async (request) =>
      listCreditNotes(ctx.db, requireActor(request).organization.id, request.query),
  });

  app.get('/v1/organizations/:orgId/credit-notes/:creditNoteId/pdf/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'A credit note as a PDF document (a download)',
      security,
      params: creditNoteParamsSchema,
      // The document itself is not JSON; errors answer the usual shape.
    },
    handler: async (request, reply) => {
      const actor = requireActor(request);
      const row = await findCreditNote(ctx.db, actor.organization.id, request.params.creditNoteId);
      if (!row) throw notFound('No such credit note.');
      const note = toCreditNoteDto(row);
      const pdf = await renderCreditNotePdf({
        number: note.number,
        invoiceNumber: note.invoice_number,
        issuedAt: row.note.created_at,
        currency: note.currency,
        lines: note.lines,
        total: note.amount,
        seller: pdfSeller(ctx.config),
        billedTo: billedToBlock(row.note.billed_to, actor.organization.name),
      });
      return sendPdf(reply, creditNotePdfFileName(note.number), pdf);
    },
  });
}
