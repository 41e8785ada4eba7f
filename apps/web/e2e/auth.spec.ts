import { expect, test } from '@playwright/test';
import { expectAccessibleAtBothWidths } from './a11y';
import { latestMail, PASSWORD, shot, signIn, signOut, signUp, uniqueEmail } from './helpers';

test.describe('researcher accounts', () => {
  test('portal shows both tabs', async ({ page }, testInfo) => {
    await page.goto('/researcher/auth');
    await expect(page.getByRole('heading', { level: 1, name: 'Researcher Portal' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await expect(page.getByText('Need help? Contact your research administrator')).toBeVisible();
    await shot(page, testInfo, 'portal-sign-in');
    await expectAccessibleAtBothWidths(page, 'portal sign-in');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await expect(page.getByText('Minimum 6 characters')).toBeVisible();
    await shot(page, testInfo, 'portal-sign-up');
    await expectAccessibleAtBothWidths(page, 'portal sign-up');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, testInfo, 'portal-sign-up-phone');
  });

  test('the set-up and confirmation link pages, with a link that is no good', async ({ page }) => {
    // The set-up form itself needs the one-time link the server prints at its first start (the
    // admin CLI makes this run's masters); its fields are the sign-up tab's, checked above.
    await page.goto('/setup?token=not-a-real-token');
    await expect(page.getByRole('heading', { name: 'Create the master account' })).toBeVisible();
    await expectAccessibleAtBothWidths(page, 'set-up link refused');
    await page.goto('/confirm-email?token=not-a-real-token');
    await expect(page.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
    await expectAccessibleAtBothWidths(page, 'confirmation link refused');
  });

  test('sign up goes to registration; sign out and sign in again', async ({ page }, testInfo) => {
    const email = uniqueEmail('signup');
    await signUp(page, 'Rosalind Franklin', email);
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Researcher Registration' }),
    ).toBeVisible();

    const banner = page.getByRole('banner');
    await expect(banner.getByText('Rosalind Franklin')).toBeVisible();
    await banner.getByRole('button', { name: 'Account menu for Rosalind Franklin' }).click();
    // A researcher without an approved application has no dashboard link.
    await expect(page.getByRole('menuitem')).toHaveText(['Sign Out']);
    await shot(page, testInfo, 'signed-in-nav-menu');
    await expectAccessibleAtBothWidths(page, 'account menu');
    await page.keyboard.press('Escape');

    const stored = await page.evaluate(() => ({
      token: sessionStorage.getItem('auth_token'),
      user: JSON.parse(sessionStorage.getItem('auth_user') ?? 'null'),
    }));
    expect(stored.token).toBeTruthy();
    expect(stored.user).toMatchObject({ email, displayName: 'Rosalind Franklin' });

    // Reload: the stored session is verified and kept.
    await page.reload();
    await expect(banner.getByText('Rosalind Franklin')).toBeVisible();

    await signOut(page);
    expect(await page.evaluate(() => sessionStorage.getItem('auth_token'))).toBeNull();

    await signIn(page, email);
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await page.goto('/');
    await expect(
      page.getByRole('heading', { name: 'Welcome back, Rosalind Franklin' }),
    ).toBeVisible();
    // No application yet: the landing line asks for one instead of promising studies to manage.
    await expect(
      page.getByText('Complete your researcher application to start creating studies.'),
    ).toBeVisible();
    await expect(page.getByText('manage your studies')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Complete Application' })).toHaveAttribute(
      'href',
      '/researcher/register',
    );
    await shot(page, testInfo, 'signed-in-landing');
    await expectAccessibleAtBothWidths(page, 'signed-in landing');
  });

  test('a wrong password is refused with the server message', async ({ page }) => {
    const email = uniqueEmail('wrongpw');
    await signUp(page, 'Marie Curie', email);
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await signOut(page);
    await signIn(page, email, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText(
      'Failed to sign in: Invalid email or password',
    );
    await expect(page).toHaveURL(/\/researcher\/auth$/);
  });

  test('forgot password, finished through the e-mailed link', async ({ page }) => {
    const email = uniqueEmail('forgot');
    await signUp(page, 'Dorothy Hodgkin', email);
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await signOut(page);

    await page.goto('/researcher/auth');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter your email address first');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Password reset email sent! Check your inbox for instructions.',
    );

    const mail = await latestMail(page, email, 'Reset your password');
    const link = `${mail.text} ${mail.html}`.match(
      /https?:\/\/[^\s"'<>]+\/reset-password\?token=[\w-]+/,
    )?.[0];
    expect(link, 'reset link in the e-mail').toBeTruthy();
    await page.goto(link as string);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Reset your password' }),
    ).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expectAccessibleAtBothWidths(page, 'reset password');

    const newPassword = 'brand-new-pass-2';
    await page.getByLabel('New Password').fill('short');
    await page.getByLabel('Confirm Password').fill('short');
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters');
    await page.getByLabel('New Password').fill(newPassword);
    await page.getByLabel('Confirm Password').fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
    await expectAccessibleAtBothWidths(page, 'reset password with an error');
    await page.getByLabel('Confirm Password').fill(newPassword);
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
    await expectAccessibleAtBothWidths(page, 'password saved');
    await page.getByRole('link', { name: 'Go to sign in' }).click();
    await expect(page).toHaveURL(/\/researcher\/auth$/);

    // The link is single-use.
    await page.goto(link as string);
    await expect(page.getByRole('alert')).toHaveText(
      'This link is invalid or has expired. Please request a new one.',
    );

    await signIn(page, email, PASSWORD);
    await expect(page.getByRole('alert')).toHaveText(
      'Failed to sign in: Invalid email or password',
    );
    await signIn(page, email, newPassword);
    await expect(page).toHaveURL(/\/researcher\/register$/);
  });

  test('Google sign-in through the sandbox popup', async ({ page }) => {
    const email = uniqueEmail('google');
    await page.goto('/researcher/auth');
    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    const popup = await popupPromise;
    await expect(popup.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
    await popup.getByLabel('Email').fill(email);
    await popup.getByLabel('Name').fill('Katherine Johnson');
    await popup.getByRole('button', { name: 'Continue' }).click();
    await popup.waitForEvent('close');
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await expect(page.getByRole('banner').getByText('Katherine Johnson')).toBeVisible();
  });

  test('Google sign-in cancelled in the popup', async ({ page }) => {
    await page.goto('/researcher/auth');
    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    const popup = await popupPromise;
    await popup.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Failed to sign in with Google: Sign-in was cancelled.',
    );
  });
});
