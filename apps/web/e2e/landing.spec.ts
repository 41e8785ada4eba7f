import { expect, test } from '@playwright/test';
import { expectAccessibleAtBothWidths } from './a11y';

test.describe('landing page (signed out)', () => {
  test('shows the product, both entry cards and the footer', async ({ page }, testInfo) => {
    await page.goto('/');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Wearable Health Research Platform' }),
    ).toBeVisible();
    await expect(
      page.getByText(
        /^A secure research platform for health data collection from wearable devices/,
      ),
    ).toBeVisible();

    const participants = page.getByRole('region', { name: 'For Participants' });
    await expect(participants.getByText('No Account Required')).toBeVisible();
    await expect(participants.getByRole('link', { name: 'Join Study' })).toHaveAttribute(
      'href',
      '/participant/enroll',
    );

    const researchers = page.getByRole('region', { name: 'For Researchers' });
    await expect(researchers.getByText('Secure Login Required')).toBeVisible();
    await expect(researchers.getByRole('link', { name: 'Researcher Login' })).toHaveAttribute(
      'href',
      '/researcher/auth',
    );

    for (const title of [
      'Secure and Compliant',
      'Wearable Integration',
      'Multi-Researcher Support',
      'Data Export',
      'Real-Time Sync',
      'Research Focused',
    ]) {
      await expect(page.getByRole('heading', { level: 3, name: title })).toBeVisible();
    }

    const year = new Date().getFullYear();
    await expect(
      page.getByText(
        'A secure research platform for health data collection and analysis, built with privacy and compliance in mind.',
      ),
    ).toBeVisible();
    await expect(
      page.getByText(`© ${year} Wearable Health Research Platform. All rights reserved.`),
    ).toBeVisible();
    await expect(page).toHaveTitle('Wearable Health Research Platform');

    const screenshot = testInfo.outputPath('landing-full-page.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    await testInfo.attach('landing-full-page', { path: screenshot, contentType: 'image/png' });
    await expectAccessibleAtBothWidths(page, 'landing');
  });

  test('navigation offers Join Study and Researcher Login', async ({ page }) => {
    await page.goto('/');
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('link', { name: 'Join Study' })).toHaveAttribute(
      'href',
      '/participant/enroll',
    );
    await expect(banner.getByRole('link', { name: 'Researcher Login' })).toHaveAttribute(
      'href',
      '/researcher/auth',
    );
    await expect(
      banner.getByRole('link', { name: 'Wearable Health Research Platform home' }),
    ).toHaveAttribute('href', '/');
  });

  test('primary buttons wear the brand colour', async ({ page }) => {
    await page.goto('/');
    const join = page
      .getByRole('region', { name: 'For Participants' })
      .getByRole('link', { name: 'Join Study' });
    await expect(join).toHaveCSS('background-color', 'rgb(140, 21, 21)');
  });

  test('looks right on a phone', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Join Study' })).toBeVisible();
    // Nothing may overflow sideways on a narrow screen.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const screenshot = testInfo.outputPath('landing-phone.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    await testInfo.attach('landing-phone', { path: screenshot, contentType: 'image/png' });
  });
});

test('an unknown path redirects to the landing page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Wearable Health Research Platform' }),
  ).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'landing after an unknown path');
});
