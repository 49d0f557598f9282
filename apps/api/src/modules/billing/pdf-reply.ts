import type { FastifyReply } from 'fastify';
import type { AppConfig } from '../../config.ts';

/** Who issues the documents (invoices, credit notes): the platform, as the PDFs print it. */
export const pdfSeller = (config: Pick<AppConfig, 'supportEmail' | 'publicUrl'>) => ({
  name: 'Portolan',
  supportEmail: config.supportEmail,
  url: config.publicUrl,
});

/** Answers a billing document as a private download, never cached on the way. */
export const sendPdf = (reply: FastifyReply, fileName: string, pdf: Uint8Array) =>
  reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(pdf));
