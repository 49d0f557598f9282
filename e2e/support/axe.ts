// Accessibility check with axe-core: fails on any serious or critical violation.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

const BLOCKING = new Set(['serious', 'critical']);

export interface AxeOptions {
  /** CSS selectors to leave out (e.g. third-party widgets). */
  exclude?: string[];
  /** Rule ids to disable, each with a reason in the calling test. */
  disableRules?: string[];
}

/** Analyse the current page (WCAG 2.x A and AA rules and best practices) and fail on blocking ones. */
export async function expectNoSeriousA11yViolations(
  page: Page,
  testInfo: TestInfo,
  options: AxeOptions = {},
) {
  // A menu closing or a modal fading in is half transparent for a moment; axe would see its
  // colours mid-transition. CSS transitions end (unlike a loader's endless animation): wait for them.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => {});
  // Legacy mode runs axe.run in the page itself (same-origin frames, and the app has no other):
  // the default mode opens a blank page per scan to merge each frame's results, a renderer of its
  // own and axe's 600 KB source parsed there again. Only violations are read, so only their nodes
  // are collected and sent back (axe otherwise returns every node that passed each rule).
  let builder = new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
  const results = await builder.analyze();

  await testInfo.attach(`axe ${new URL(page.url()).pathname}`, {
    body: JSON.stringify(results.violations, null, 2),
    contentType: 'application/json',
  });
  const blocking = results.violations.filter((v) => BLOCKING.has(v.impact ?? ''));
  const report = blocking
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.replace(/\n/g, ' ') ?? ''}`)
          .join('\n'),
    )
    .join('\n');
  expect(
    blocking,
    `serious or critical accessibility violations on ${page.url()}:\n${report}`,
  ).toEqual([]);
}
