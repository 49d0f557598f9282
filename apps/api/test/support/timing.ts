import { expect } from 'vitest';

/**
 * For tests that two paths take about as long (so an answer's timing tells nobody which one ran):
 * measures up to `attempts` times and passes as soon as one measurement is within the bound. A
 * path that skips work the other does is off every time; a machine busy with other tests is
 * only off now and then, and would otherwise make the test fail for no fault of the code.
 */
export async function expectAlikeInTime(
  measure: () => Promise<{ difference: number; typical: number }>,
  bound: (typical: number) => number,
  label: string,
  attempts = 3,
): Promise<void> {
  const seen: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const { difference, typical } = await measure();
    if (Math.abs(difference) < bound(typical)) return;
    seen.push(`${difference.toFixed(2)} ms of ${typical.toFixed(2)} ms`);
  }
  expect.fail(
    `${label} differ beyond the bound in each of ${attempts} measurements: ${seen.join('; ')}`,
  );
}
