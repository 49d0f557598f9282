import { describe, expect, it } from 'vitest';
import { contrastRatio, contrastWarnings, parseColor } from './contrast';

describe('contrast of a stylesheet’s text and background colours', () => {
  it('reads the colour notations and works out WCAG ratios', () => {
    expect(parseColor('#fff')).toEqual([255, 255, 255, 1]);
    expect(parseColor('#0b3d5c')).toEqual([11, 61, 92, 1]);
    expect(parseColor('rgb(194, 37, 92)')).toEqual([194, 37, 92, 1]);
    expect(parseColor('rgb(0 0 0 / 50%)')).toEqual([0, 0, 0, 0.5]);
    expect(parseColor('hsl(0, 100%, 50%)')).toEqual([255, 0, 0, 1]);
    expect(parseColor('White')).toEqual([255, 255, 255, 1]);
    expect(parseColor('var(--x)')).toBeNull();
    const ratio = (a: string, b: string) => contrastRatio(parseColor(a)!, parseColor(b)!);
    expect(ratio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(ratio('#fff', '#fff')).toBeCloseTo(1, 5);
    expect(ratio('#777', '#fff')).toBeCloseTo(4.48, 2);
  });

  it('warns below 4.5:1 per selector, merging its rules, last declaration winning', () => {
    expect(
      contrastWarnings(`
        /* header { color: #000; } */
        header { background: #c2255c url(/uploads/x.png) no-repeat; }
        @media (min-width: 1px) { header, .title { color: #ff8fab !important; } }
        main { color: #212529; background-color: #ffffff; }
        .soft { color: #999; background-color: #fff; }
        .soft { color: #595959; }
      `),
    ).toEqual([{ selector: 'header', color: '#ff8fab', background: '#c2255c', ratio: 2.63 }]);
  });

  it('leaves out what it cannot read rather than guess', () => {
    expect(contrastWarnings('a { color: var(--c); background: #fff }')).toEqual([]);
    expect(contrastWarnings('a { color: #eee; background: linear-gradient(red, blue) }')).toEqual([
      { selector: 'a', color: '#eee', background: 'red', ratio: 3.45 },
    ]);
    expect(contrastWarnings('a { color: #eee }')).toEqual([]);
  });
});
