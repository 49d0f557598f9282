/**
 * The contrast check of the branding preview (issue 18): for every selector of a stylesheet that
 * sets both a text colour and a background colour, the WCAG 2 contrast ratio of the two; below
 * 4.5:1 (AA for normal text) it is a warning shown before saving. Colours it cannot read
 * (variables, gradients, currentColor, unknown names) are left out rather than guessed.
 */

export const MIN_CONTRAST = 4.5;

export interface ContrastWarning {
  selector: string;
  color: string;
  background: string;
  /** Rounded to two decimals, as shown ("1.61:1"). */
  ratio: number;
}

type Rgba = [number, number, number, number];

const NAMED: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  red: '#ff0000',
  maroon: '#800000',
  yellow: '#ffff00',
  olive: '#808000',
  lime: '#00ff00',
  green: '#008000',
  aqua: '#00ffff',
  cyan: '#00ffff',
  teal: '#008080',
  blue: '#0000ff',
  navy: '#000080',
  fuchsia: '#ff00ff',
  magenta: '#ff00ff',
  purple: '#800080',
  orange: '#ffa500',
  pink: '#ffc0cb',
  gold: '#ffd700',
  brown: '#a52a2a',
  lightgray: '#d3d3d3',
  lightgrey: '#d3d3d3',
  darkgray: '#a9a9a9',
  darkgrey: '#a9a9a9',
  whitesmoke: '#f5f5f5',
  ivory: '#fffff0',
  beige: '#f5f5dc',
  khaki: '#f0e68c',
  lightyellow: '#ffffe0',
};

const channel = (v: string, max: number) =>
  v.endsWith('%') ? (parseFloat(v) / 100) * max : parseFloat(v);

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** A CSS colour as [r, g, b, alpha] (0–255, 0–1), or null when it is not one this reads. */
export function parseColor(value: string): Rgba | null {
  const v = value.trim().toLowerCase();
  if (v === 'transparent') return [0, 0, 0, 0];
  const named = NAMED[v];
  if (named) return parseColor(named);
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    const n = (i: number) => parseInt(full.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), full.length === 8 ? n(6) / 255 : 1];
  }
  const fn = /^(rgba?|hsla?)\(([^)]*)\)$/.exec(v);
  if (!fn) return null;
  const parts = fn[2]!
    .replace(/\//g, ' ')
    .split(/[\s,]+/)
    .filter(Boolean);
  if (parts.length < 3) return null;
  const alpha = parts[3] === undefined ? 1 : channel(parts[3], 1);
  const rgb: [number, number, number] = fn[1]!.startsWith('rgb')
    ? [channel(parts[0]!, 255), channel(parts[1]!, 255), channel(parts[2]!, 255)]
    : hslToRgb(parseFloat(parts[0]!), channel(parts[1]!, 1), channel(parts[2]!, 1));
  if ([...rgb, alpha].some((x) => Number.isNaN(x))) return null;
  return [...rgb, alpha];
}

const linear = (c: number) => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const luminance = ([r, g, b]: Rgba) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);

/** The colour seen: a translucent one laid over what is beneath it. */
const over = ([r, g, b, a]: Rgba, [br, bg, bb]: Rgba): Rgba => [
  r * a + br * (1 - a),
  g * a + bg * (1 - a),
  b * a + bb * (1 - a),
  1,
];

/** WCAG 2 contrast ratio of a text colour on a background (a translucent one over white). */
export function contrastRatio(color: Rgba, background: Rgba): number {
  const bg = over(background, [255, 255, 255, 1]);
  const fg = over(color, bg);
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The background colour of a `background` shorthand: its one colour token, if it has one. */
function backgroundColorOf(value: string): string | null {
  const tokens = value.match(/#[0-9a-f]+|(?:rgba?|hsla?)\([^)]*\)|[a-z-]+/gi) ?? [];
  return tokens.find((t) => parseColor(t)) ?? null;
}

/**
 * Every selector whose text colour and background colour (set in any of its rules, the last one
 * winning as in the browser) contrast below 4.5:1. Comments are ignored; rules inside at-rules
 * (@media, @supports) count as if they always applied.
 */
export function contrastWarnings(css: string): ContrastWarning[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const found = new Map<string, { color?: string; background?: string }>();
  // Innermost blocks: a prelude and declarations with no brace inside.
  for (const m of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const prelude = m[1]!.trim();
    if (prelude.startsWith('@')) continue;
    const decls = new Map<string, string>();
    for (const decl of m[2]!.split(';')) {
      const at = decl.indexOf(':');
      if (at < 0) continue;
      decls.set(
        decl.slice(0, at).trim().toLowerCase(),
        decl
          .slice(at + 1)
          .replace(/!important/i, '')
          .trim(),
      );
    }
    const color = decls.get('color');
    const bgValue = decls.get('background-color') ?? decls.get('background');
    const background = bgValue === undefined ? undefined : backgroundColorOf(bgValue);
    if (color === undefined && !background) continue;
    for (const selector of prelude.split(',').map((s) => s.trim().replace(/\s+/g, ' '))) {
      const entry = found.get(selector) ?? {};
      if (color !== undefined) entry.color = color;
      if (background) entry.background = background;
      found.set(selector, entry);
    }
  }
  const warnings: ContrastWarning[] = [];
  for (const [selector, { color, background }] of found) {
    if (color === undefined || background === undefined) continue;
    const fg = parseColor(color);
    const bg = parseColor(background);
    if (!fg || !bg) continue;
    const ratio = Math.round(contrastRatio(fg, bg) * 100) / 100;
    if (ratio < MIN_CONTRAST) warnings.push({ selector, color, background, ratio });
  }
  return warnings;
}
