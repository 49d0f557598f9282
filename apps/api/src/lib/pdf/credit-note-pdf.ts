import { renderBillingDocumentPdf, type BillingDocumentPdfInput } from './invoice-pdf.ts';

/** What a credit note PDF shows: money of an invoice given back, laid out as the invoice is. */
export type CreditNotePdfInput = Omit<
  BillingDocumentPdfInput,
  'kind' | 'description' | 'status' | 'subtotal'
> & {
  /** The invoice it credits (INV-000123). */
  invoiceNumber: string;
};

export const creditNotePdfFileName = (number: string) => `credit-note-${number}.pdf`;

export function renderCreditNotePdf(input: CreditNotePdfInput): Promise<Uint8Array> {
  const { invoiceNumber, ...rest } = input;
  return renderBillingDocumentPdf({
    ...rest,
    kind: 'Credit note',
    description: `Credits invoice ${invoiceNumber}`,
    status: 'Refunded to the card',
    subtotal: input.total,
  });
}
