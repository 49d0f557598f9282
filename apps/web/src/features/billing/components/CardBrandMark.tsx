import type { CardBrand } from '@portolan/contract';

/** Each brand's colours and short mark (spec §9: a logo per brand, a generic card otherwise). */
const MARKS: Record<CardBrand, { bg: string; fg: string; text: string }> = {
  amex: { bg: '#1f72cd', fg: '#fff', text: 'AMEX' },
  diners: { bg: '#0079be', fg: '#fff', text: 'DINERS' },
  discover: { bg: '#fff', fg: '#231f20', text: 'DISCOVER' },
  jcb: { bg: '#0b4ea2', fg: '#fff', text: 'JCB' },
  mastercard: { bg: '#252525', fg: '#fff', text: '' },
  unionpay: { bg: '#d10429', fg: '#fff', text: 'UnionPay' },
  visa: { bg: '#1a1f71', fg: '#fff', text: 'VISA' },
  unknown: { bg: '#e9ecef', fg: '#495057', text: 'CARD' },
};

/**
 * A card brand's logo as a small inline SVG (no image requests, no third-party assets). It is
 * decoration: the card's text names the brand for everyone.
 */
export function CardBrandMark({ brand }: { brand: CardBrand }) {
  const mark = MARKS[brand] ?? MARKS.unknown;
  return (
    <svg
      width={48}
      height={32}
      viewBox="0 0 48 32"
      aria-hidden="true"
      focusable="false"
      data-brand={brand}
    >
      <rect x={0.5} y={0.5} width={47} height={31} rx={4} fill={mark.bg} stroke="#ced4da" />
      {brand === 'mastercard' ? (
        <>
          <circle cx={19} cy={16} r={9} fill="#eb001b" />
          <circle cx={29} cy={16} r={9} fill="#f79e1b" fillOpacity={0.9} />
        </>
      ) : (
        <text
          x={24}
          y={20}
          textAnchor="middle"
          fontFamily="Arial, Helvetica, sans-serif"
          fontWeight={700}
          fontSize={mark.text.length > 5 ? 8 : 11}
          fill={mark.fg}
        >
          {mark.text}
        </text>
      )}
      {brand === 'discover' && <circle cx={40} cy={8} r={3} fill="#f48120" />}
    </svg>
  );
}
