import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUSTOM_CSS_MAX_BYTES, CssMessages, cssByteLength, kilobytes } from './branding.ts';
import { sellerSettingsUpdateSchema } from './branding-schemas.ts';

describe('cssByteLength', () => {
  it('counts bytes of UTF-8: 1 to 4 per code point, a lone surrogate as U+FFFD (3)', () => {
    const utf8Bytes = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);
    const codePoint = fc
      .integer({ min: 0, max: 0x10ffff })
      .filter((cp) => cp < 0xd800 || cp > 0xdfff);
    fc.assert(
      fc.property(fc.array(codePoint, { maxLength: 100 }), (cps) => {
        const text = String.fromCodePoint(...cps);
        expect(cssByteLength(text)).toBe(cps.reduce((sum, cp) => sum + utf8Bytes(cp), 0));
      }),
    );
    expect(cssByteLength('é€😀')).toBe(2 + 3 + 4);
    expect(cssByteLength('a\uD800b\uDC00')).toBe(1 + 3 + 1 + 3);
  });
});

describe('sellerSettingsUpdateSchema', () => {
  it('bounds the stylesheet in bytes and says by how much it is over', () => {
    const atBound = 'a'.repeat(CUSTOM_CSS_MAX_BYTES);
    expect(sellerSettingsUpdateSchema.safeParse({ custom_css: atBound }).success).toBe(true);
    const over = sellerSettingsUpdateSchema.safeParse({ custom_css: 'é'.repeat(11_000) });
    expect(over.error?.issues).toEqual([
      expect.objectContaining({
        path: ['custom_css'],
        message: CssMessages.tooLarge(22_000),
      }),
    ]);
    expect(CssMessages.tooLarge(22_000)).toBe('The stylesheet is 21.5 KB: keep it within 20 KB.');
  });

  it('keeps a stylesheet exactly as sent and takes a logo or null', () => {
    const css = '\n  a { color: red }\n';
    expect(sellerSettingsUpdateSchema.parse({ custom_css: css })).toEqual({ custom_css: css });
    expect(sellerSettingsUpdateSchema.parse({ default_client_header_logo: null })).toEqual({
      default_client_header_logo: null,
    });
    expect(sellerSettingsUpdateSchema.safeParse({ other: 1 }).success).toBe(false);
  });

  it('writes sizes in KB with at most one decimal', () => {
    expect(kilobytes(20 * 1024)).toBe('20 KB');
    expect(kilobytes(1536)).toBe('1.5 KB');
    expect(kilobytes(0)).toBe('0 KB');
  });
});
