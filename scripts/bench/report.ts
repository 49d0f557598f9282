// How the bench prints: numbers with thousands separators, and the closing table of every figure
// with its ratio, its target and whether it is met.
export interface Row {
  figure: string;
  value: string;
  ratio: string;
  target: string;
  /** Met, missed, or null where nothing was compared (a figure printed for information). */
  met: boolean | null;
}

export const perSecond = (n: number) => `${Math.round(n).toLocaleString('en-US')}/s`;
export const requestsPerSecond = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`;
export const milliseconds = (ms: number) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
export const megabytes = (mb: number) => `${mb.toFixed(0)} MB`;
export const times = (ratio: number) => `${ratio.toFixed(1)}×`;
export const percent = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;
export const mark = (met: boolean | null) => (met === null ? '' : met ? '✓' : '✗');

export function printTable(title: string, rows: Row[]) {
  const header: Row = {
    figure: 'figure',
    value: 'value',
    ratio: 'ratio',
    target: 'target',
    met: null,
  };
  const widths = (['figure', 'value', 'ratio', 'target'] as const).map((k) =>
    Math.max(...[header, ...rows].map((r) => r[k].length)),
  );
  const line = (r: Row, met: string) =>
    `  ${r.figure.padEnd(widths[0]!)}  ${r.value.padStart(widths[1]!)}  ${r.ratio.padStart(widths[2]!)}  ${r.target.padEnd(widths[3]!)}  ${met}`;
  console.log(`\n${title}`);
  console.log(line(header, ''));
  console.log(`  ${'-'.repeat(widths.reduce((a, b) => a + b + 2, 0) + 1)}`);
  for (const r of rows) console.log(line(r, mark(r.met)));
  const missed = rows.filter((r) => r.met === false).length;
  const met = rows.filter((r) => r.met === true).length;
  if (met + missed) console.log(`  ${met} target(s) met, ${missed} missed`);
}
