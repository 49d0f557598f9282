// Accessibility check with axe-core: fails on any serious or critical violation.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

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

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * Loaded (no skeleton or busy region left), then axe at 1440 and at 390 px, and back to 1440.
 * With E2E_SHOTS_DIR set, `shot` is photographed at each width too (`<name>-<width>.png`): its
 * element, or else the whole page.
 */
export async function checkBothWidths(
  page: Page,
  testInfo: TestInfo,
  shot?: { name: string; of?: Locator },
) {
  const shots = process.env.E2E_SHOTS_DIR;
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await expect(page.locator('[aria-busy="true"], .mantine-Skeleton-root')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, testInfo);
    if (shots && shot) {
      mkdirSync(shots, { recursive: true });
      // The element where it lies on the whole page: the fixed header and toasts stay at its top.
      const clip = await shot.of?.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return {
          x: r.x + window.scrollX,
          y: r.y + window.scrollY,
          width: r.width,
          height: r.height,
        };
      });
      const file = path.join(shots, `${shot.name}-${size.width}.png`);
      await page.screenshot({ path: file, fullPage: true, clip });
    }
  }
  await page.setViewportSize(DESKTOP);
}
