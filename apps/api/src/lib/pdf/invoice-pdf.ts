import type * as PdfLib from 'pdf-lib';
import { lazyModule } from '../lazy-module.ts';
import { formatMoney } from '../money.ts';
import type { PDFFont, PDFPage } from 'pdf-lib';

/** Who a document is for: a name, then the lines under it (address, country, tax ID). */
export interface BilledToPdf {
  name: string;
  lines?: string[];
}

/**
 * A billing document as laid out: an invoice or a credit note (credit-note-pdf.ts). Amounts are
 * in minor units (cents) and may be negative (credits).
 */
export interface BillingDocumentPdfInput {
  /** What the document is ("Invoice", "Credit note"): its heading, before the number, and title. */
  kind: string;
  number: string;
  issuedAt: Date;
  /** What it is for, under the heading. */
  description: string;
  /** Printed in bold under the date ("Paid"), if anything. */
  status: string | null;
  currency: string;
  lines: { description: string; amount: number }[];
  subtotal: number;
  total: number;
  seller: { name: string; supportEmail: string; url: string };
  billedTo: BilledToPdf;
}

/** What an invoice PDF shows. */
export type InvoicePdfInput = Omit<BillingDocumentPdfInput, 'kind' | 'status'> & {
  status: 'PAID' | 'FAILED';
};

export const invoicePdfFileName = (number: string) => `invoice-${number}.pdf`;

// A4 in points, with one margin all round.
const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const AMOUNT_WIDTH = 120;
const DESCRIPTION_WIDTH = PAGE[0] - 2 * MARGIN - AMOUNT_WIDTH - 16;
const SIZE = 10;
const LEADING = 14;
// Table rows stop above the footer, which every page carries.
const BOTTOM = MARGIN + 48;
const pdfLib = lazyModule<typeof PdfLib>('pdf-lib');
const grey = () => pdfLib().rgb(0.4, 0.4, 0.4);
// A continuation page starts its rows below a heading (2 leadings) and the table header.
const CONTINUED_TOP = PAGE[1] - MARGIN - 2 * LEADING - (LEADING + 4);
const MAX_ROWS = Math.floor((CONTINUED_TOP - BOTTOM) / LEADING) + 1;

/**
 * The standard fonts only encode WinAnsi (Latin-1 plus a few): keep what the font can draw,
 * fall back to the letter without its accents (ő → o), and put '?' for the rest, so any name
 * renders instead of throwing.
 */
function toWinAnsi(font: PDFFont, text: string): string {
  const encodable = (s: string) => {
    try {
      font.widthOfTextAtSize(s, SIZE);
      return true;
    } catch {
      return false;
    }
  };
  let out = '';
  // Control characters (newlines, tabs) are not in WinAnsi; a space reads better than '?'.
  for (const ch of text.normalize('NFC').replace(/\s+/g, ' ')) {
    if (encodable(ch)) {
      out += ch;
      continue;
    }
    const folded = ch.normalize('NFKD').replace(/\p{M}/gu, '');
    out += folded && encodable(folded) ? folded : '?';
  }
  return out;
}

/** Breaks text into lines no wider than `width`, splitting words that are longer on their own. */
function wrap(font: PDFFont, text: string, width: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, SIZE) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const ch of word) {
      if (line && !fits(line + ch)) {
        lines.push(line);
        line = '';
      }
      line += ch;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

const issuedOn = (d: Date) =>
  `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;

export function renderInvoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  return renderBillingDocumentPdf({
    ...input,
    kind: 'Invoice',
    status: input.status === 'PAID' ? 'Paid' : 'Payment failed',
  });
}

export async function renderBillingDocumentPdf(
  input: BillingDocumentPdfInput,
): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = pdfLib();
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const text = (s: string) => toWinAnsi(regular, s);
  const money = (minor: number) => text(formatMoney(minor, input.currency));

  // Metadata dated by the document, not by the clock, so the same input gives the same bytes.
  doc.setTitle(`${input.kind} ${input.number}`);
  doc.setAuthor(input.seller.name);
  doc.setCreator('Portolan');
  doc.setCreationDate(input.issuedAt);
  doc.setModificationDate(input.issuedAt);

  const amountX = PAGE[0] - MARGIN;
  let page: PDFPage = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;

  const draw = (s: string, x: number, opts: { font?: PDFFont; size?: number } = {}) =>
    page.drawText(s, { x, y, size: opts.size ?? SIZE, font: opts.font ?? regular });
  const drawRight = (s: string, opts: { font?: PDFFont } = {}) => {
    const font = opts.font ?? regular;
    draw(s, amountX - font.widthOfTextAtSize(s, SIZE), { font });
  };
  const rule = () =>
    page.drawLine({
      start: { x: MARGIN, y: y + LEADING - 4 },
      end: { x: amountX, y: y + LEADING - 4 },
      thickness: 0.5,
      color: grey(),
    });
  const tableHeader = () => {
    draw('Description', MARGIN, { font: bold });
    drawRight('Amount', { font: bold });
    y -= LEADING + 4;
    rule();
  };
  // Starts a new page when `rows` more rows would not fit above the footer.
  const ensureRoom = (rows: number) => {
    if (y - (rows - 1) * LEADING >= BOTTOM) return;
    page = doc.addPage(PAGE);
    y = PAGE[1] - MARGIN;
    draw(text(`${input.kind} ${input.number} (continued)`), MARGIN, { font: bold });
    y -= 2 * LEADING;
    tableHeader();
  };

  // Header: who sells, which document, when, and whether it was paid.
  y -= 8;
  draw(text(input.seller.name), MARGIN, { font: bold, size: 20 });
  y -= 40;
  draw(text(`${input.kind} ${input.number}`), MARGIN, { font: bold, size: 14 });
  y -= LEADING + 6;
  for (const line of wrap(regular, text(input.description), PAGE[0] - 2 * MARGIN)) {
    draw(line, MARGIN);
    y -= LEADING;
  }
  draw(`Issued ${issuedOn(input.issuedAt)}`, MARGIN);
  y -= LEADING;
  if (input.status) {
    draw(text(input.status), MARGIN, { font: bold });
    y -= LEADING;
  }
  y -= LEADING;

  // The buyer: a name, then each address line, the country and the tax ID, as given.
  draw('Billed to', MARGIN, { font: bold });
  y -= LEADING;
  for (const part of [input.billedTo.name, ...(input.billedTo.lines ?? [])]) {
    for (const line of wrap(regular, text(part), PAGE[0] - 2 * MARGIN)) {
      draw(line, MARGIN);
      y -= LEADING;
    }
  }
  y -= 2 * LEADING;

  tableHeader();
  for (const item of input.lines) {
    const rows = wrap(regular, text(item.description), DESCRIPTION_WIDTH);
    // Keep a line on one page unless it is longer than a whole page on its own.
    ensureRoom(Math.min(rows.length, MAX_ROWS));
    const first = { page, y };
    for (const row of rows) {
      ensureRoom(1);
      draw(row, MARGIN);
      y -= LEADING;
    }
    // The amount sits beside the first row, but is drawn last so extracted text reads in order.
    const amount = money(item.amount);
    first.page.drawText(amount, {
      x: amountX - regular.widthOfTextAtSize(amount, SIZE),
      y: first.y,
      size: SIZE,
      font: regular,
    });
    y -= 4;
  }

  ensureRoom(3);
  y -= 4;
  rule();
  draw('Subtotal', MARGIN);
  drawRight(money(input.subtotal));
  y -= LEADING + 2;
  draw('Total', MARGIN, { font: bold });
  drawRight(money(input.total), { font: bold });

  // The footer goes on every page, so a printed page on its own still says whom to ask.
  for (const p of doc.getPages()) {
    const footer = [`Questions? Write to ${input.seller.supportEmail}`, input.seller.url];
    footer.forEach((line, i) =>
      p.drawText(text(line), {
        x: MARGIN,
        y: MARGIN - i * LEADING,
        size: 9,
        font: regular,
        color: grey(),
      }),
    );
  }

  return doc.save();
}
