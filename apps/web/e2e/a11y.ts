import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.1 A and AA, plus axe's best practices (dialog names, heading order, landmarks). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Moderate in axe's scale, held all the same: a screen reader user moves by headings and
 * landmarks, and a skipped level or a second main region sends them astray.
 */
const HELD_REGARDLESS_OF_IMPACT = new Set(['heading-order', 'landmark-no-duplicate-main']);

const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

/** Waits until no CSS transition or animation runs (a fading dialog reads as low contrast). */
async function settled(page: Page) {
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => {}))),
  );
}

/**
 * Runs axe on the page at its current size and fails, naming each rule, its impact, the elements
 * and what is wrong, on every serious or critical violation (and on the rules held above).
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await settled(page);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const failing = violations.filter(
    (violation) =>
      violation.impact === 'serious' ||
      violation.impact === 'critical' ||
      HELD_REGARDLESS_OF_IMPACT.has(violation.id),
  );
  const width = page.viewportSize()?.width;
  const report = failing.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n  at ${node.target.join(' ')}\n  ${node.failureSummary?.replaceAll('\n', '\n  ')}`,
    ),
  );
  // Soft: the journey goes on, so one run names every screen at fault; the test still fails.
  expect.soft(report, `accessibility of "${label}" at ${width} px`).toEqual([]);
}

/** The check at a desktop's 1280 px and at a phone's 390 px; the page's size is restored after. */
export async function expectAccessibleAtBothWidths(page: Page, label: string): Promise<void> {
  const size = page.viewportSize();
  try {
    for (const viewport of WIDTHS) {
      if (page.viewportSize()?.width !== viewport.width) await page.setViewportSize(viewport);
      await expectAccessible(page, label);
    }
  } finally {
    if (size && page.viewportSize()?.width !== size.width) await page.setViewportSize(size);
  }
}
