import { describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { invoicePdfFileName, renderInvoicePdf } from './invoice-pdf.ts';
import type { InvoicePdfInput } from './invoice-pdf.ts';

const base: InvoicePdfInput = {
  number: 'INV-000042',
  issuedAt: new Date('2026-03-07T23:30:00Z'),
  status: 'PAID',
  description: 'Professional plan, monthly',
  currency: 'usd',
  lines: [
    { description: 'Professional plan (Mar 7 - Apr 7)', amount: 7900 },
    { description: 'Credit for unused time on Starter', amount: -1250 },
  ],
  subtotal: 6650,
  total: 6650,
  seller: { name: 'Portolan', supportEmail: 'support@portolan.test', url: 'https://portolan.test' },
  billedTo: { name: 'Acme Logistics' },
};

/** Reads the PDF back the way a viewer would: page count and the text of all pages. */
async function read(bytes: Uint8Array) {
  // pdf.js may take ownership of the buffer it is given; hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return { pdf, text: text.replace(/\s+/g, ' ') };
}

/**
 * No text is drawn past the right margin or below the footer, and no two pieces of text on one
 * baseline overlap (a description running into its amount), on any page.
 */
async function expectWithinMargins(pdf: Awaited<ReturnType<typeof getDocumentProxy>>) {
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const boxes = (await page.getTextContent()).items.flatMap((item) => {
      if (!('transform' in item) || !item.str.trim()) return [];
      const [, , , , x, y] = item.transform as number[];
      return [{ left: x!, right: x! + item.width, y: y! }];
    });
    expect(boxes.length).toBeGreaterThan(0);
    for (const box of boxes) {
      expect(box.right).toBeLessThanOrEqual(595.28 - 56 + 0.01);
      expect(box.y).toBeGreaterThanOrEqual(56 - 14 - 0.01);
    }
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        if (Math.abs(a.y - b.y) < 1) expect(a.right <= b.left || b.right <= a.left).toBe(true);
      }
    }
  }
}

describe('renderInvoicePdf', () => {
  it('renders the number, UTC issue date, lines, amounts and totals', async () => {
    // 23:30 UTC on the 7th is already the 8th in Tokyo: render there, so local dates would show.
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    let bytes: Uint8Array;
    try {
      expect(new Date('2026-03-07T23:30:00Z').getDate()).toBe(8);
      bytes = await renderInvoicePdf(base);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');

    const { pdf, text } = await read(bytes);
    expect(pdf.numPages).toBe(1);
    expect(text).toContain('INV-000042');
    expect(text).toContain('Issued 03/07/2026');
    expect(text).toContain('Paid');
    expect(text).not.toContain('Payment failed');
    expect(text).toContain('Acme Logistics');
    expect(text).toContain('Professional plan, monthly');
    for (const line of base.lines) expect(text).toContain(line.description);
    expect(text).toContain('$79.00');
    expect(text).toContain('-$12.50');
    expect(text).toMatch(/Subtotal \$66\.50/);
    expect(text).toMatch(/Total \$66\.50/);
    expect(text).toContain('Questions? Write to support@portolan.test');
    expect(text).toContain('https://portolan.test');

    const info = (await pdf.getMetadata()).info as Record<string, unknown>;
    expect(info.Title).toBe('Invoice INV-000042');
    expect(info.Author).toBe('Portolan');
    expect(info.Creator).toBe('Portolan');
    // Dated by the invoice rather than the clock, which is what makes the output reproducible.
    expect(info.CreationDate).toMatch(/^D:20260307233000/);
    expect(info.ModDate).toMatch(/^D:20260307233000/);
  });

  it('gives the same bytes for the same input', async () => {
    const a = await renderInvoicePdf(base);
    const b = await renderInvoicePdf(base);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('renders a name outside WinAnsi, keeping what Helvetica can draw', async () => {
    const bytes = await renderInvoicePdf({
      ...base,
      billedTo: { name: 'Zürich Spedition 株式会社' },
    });
    const { text } = await read(bytes);
    expect(text).toContain('Zürich Spedition ????');
    expect(text).not.toContain('株');
  });

  it('wraps long descriptions and carries 60 lines onto further pages', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({
      description: `Line ${i + 1}: seat added for a member of the logistics team, prorated for the rest of the billing period that ends on 04/07/2026`,
      amount: 1000 + i,
    }));
    const total = lines.reduce((sum, l) => sum + l.amount, 0);
    const bytes = await renderInvoicePdf({ ...base, lines, subtotal: total, total });
    const { pdf, text } = await read(bytes);

    expect(pdf.numPages).toBeGreaterThan(1);
    // Wrapping puts a line break inside each description; whitespace is normalised by read().
    for (const line of lines) expect(text).toContain(line.description);
    expect(text).toContain('$10.59');
    expect(text).toMatch(/Total \$617\.70/);

    await expectWithinMargins(pdf);
  });

  it('breaks a description longer than a page, and a word wider than the column', async () => {
    const words = Array.from({ length: 700 }, (_, i) => `word${i}`);
    const longWord = 'X'.repeat(200);
    const bytes = await renderInvoicePdf({
      ...base,
      lines: [
        { description: words.join(' '), amount: 100 },
        { description: longWord, amount: 200 },
      ],
    });
    const { pdf, text } = await read(bytes);
    expect(pdf.numPages).toBeGreaterThan(1);
    for (const word of words) expect(text).toMatch(new RegExp(`\\b${word}\\b`));
    // The long word is cut into column-wide pieces that together are the whole word.
    const pieces = text.match(/X+/g) ?? [];
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(longWord);
    await expectWithinMargins(pdf);
  });

  it('says when the payment failed', async () => {
    const { text } = await read(await renderInvoicePdf({ ...base, status: 'FAILED' }));
    expect(text).toContain('Payment failed');
    expect(text).not.toMatch(/\bPaid\b/);
  });

  it('names the file after the invoice number', () => {
    expect(invoicePdfFileName('INV-000042')).toBe('invoice-INV-000042.pdf');
  });
});
