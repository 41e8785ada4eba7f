import { expect, type Page, test } from '@playwright/test';
import { expectAccessibleAtBothWidths } from './a11y';
import { createMaster, PASSWORD, shot, signIn, signUp, uniqueEmail } from './helpers';

const GUARDED = [
  '/dashboard',
  '/researcher/register',
  '/researcher/application-status',
  '/master/dashboard',
  '/researcher/dashboard',
  '/researcher/study/some-study',
];

function endsWith(path: string) {
  return new RegExp(`${path.replace(/[/.]/g, '\\$&')}$`);
}

async function expectLanding(page: Page, from: string, to: string) {
  await page.goto(from);
  await expect(page, `${from} → ${to}`).toHaveURL(endsWith(to));
}

test.describe('route guards', () => {
  test('signed out: every guarded route goes to the portal', async ({ page }) => {
    for (const route of GUARDED) {
      await expectLanding(page, route, '/researcher/auth');
    }
    await expectLanding(page, '/researcher/auth', '/researcher/auth');
    await expect(page.getByRole('heading', { level: 1, name: 'Researcher Portal' })).toBeVisible();
  });

  test('researcher without a profile: everything leads to registration', async ({ page }) => {
    await signUp(page, 'Barbara McClintock', uniqueEmail('noprofile'));
    await expect(page).toHaveURL(/\/researcher\/register$/);
    for (const route of [...GUARDED, '/researcher/auth']) {
      await expectLanding(page, route, '/researcher/register');
    }
    await expect(
      page.getByRole('heading', { level: 1, name: 'Researcher Registration' }),
    ).toBeVisible();
  });

  test.describe('master', () => {
    const email = uniqueEmail('master');
    const password = `${PASSWORD}-master`;
    test.beforeAll(() => {
      createMaster(email, password);
    });

    test('signs in to the master dashboard; researcher pages send it back there', async ({
      page,
    }, testInfo) => {
      await signIn(page, email, password);
      await expect(page).toHaveURL(/\/master\/dashboard$/);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Master Account Dashboard' }),
      ).toBeVisible();
      for (const route of [...GUARDED, '/researcher/auth']) {
        await expectLanding(page, route, '/master/dashboard');
      }
      await page.getByRole('button', { name: /^Account menu for / }).click();
      const item = page.getByRole('menuitem', { name: 'Master Dashboard' });
      await expect(item).toHaveClass(/Mui-selected/);
      await expect(page.getByRole('menuitem', { name: 'Dashboard', exact: true })).toHaveCount(0);
      await shot(page, testInfo, 'master-nav-menu');
      await expectAccessibleAtBothWidths(page, 'master account menu');
    });
  });
});
