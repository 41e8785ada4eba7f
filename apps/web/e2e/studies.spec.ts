import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { expectAccessible } from './a11y';
import {
  approveApplication,
  createMaster,
  latestMail,
  PASSWORD,
  registerAndApply,
  shot,
  signIn,
  uniqueEmail,
} from './helpers';

/**
 * The researcher dashboard against the real product: an owner creates a study naming a researcher
 * who is approved only afterwards; that researcher follows the invitation link from the sandbox
 * inbox, joins with the prefilled code and password and sees a collaborator's card; the owner
 * copies the code, edits the study, changes its password through every rule, and deletes it; a
 * study created without a password then takes a first one without a current one.
 */

const masterEmail = uniqueEmail('studies-master');
const masterPassword = `${PASSWORD}-master`;
const owner = { name: 'Rosalind Franklin', email: uniqueEmail('owner') };
const collaborator = { name: 'Dorothy Hodgkin', email: uniqueEmail('collab') };
let collaboratorApplicationId = '';

const STUDY_NAME = 'Sleep Architecture and Daytime Activity in Night-Shift Nurses';
const DESCRIPTION =
  'We follow sleep stages, resting heart rate and daily steps of nurses working night shifts for eight weeks, comparing work weeks with recovery weeks to understand how circadian disruption shows up in wearable data.';
const STUDY_PASSWORD = 'study-pass-1';
const NEW_STUDY_PASSWORD = 'study-pass-2';
let studyCode = '';

async function signInToDashboard(page: Page, email: string) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/researcher\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Researcher Dashboard' })).toBeVisible();
  await expect(page.getByText(/^Welcome back, /)).toBeVisible();
  await expect(page.getByText('Loading your studies...')).toHaveCount(0);
}

/** The notification modal with this title: checks the message and closes it with 'Got it'. */
async function expectNotification(
  page: Page,
  title: string,
  message: string | RegExp,
  screenshot?: { testInfo: TestInfo; name: string },
) {
  const modal = page
    .getByRole('dialog', { name: title })
    .or(page.getByRole('alertdialog', { name: title }));
  await expect(modal).toBeVisible();
  await expect(modal).toContainText(message);
  const text = (await modal.textContent()) ?? '';
  if (screenshot) await bothWidths(page, screenshot.testInfo, screenshot.name);
  await modal.getByRole('button', { name: 'Got it' }).click();
  await expect(modal).toBeHidden();
  return text;
}

/** The screen (or open dialog) at 1280 and 390 px: a screenshot and the axe check at each. */
async function bothWidths(page: Page, testInfo: TestInfo, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, testInfo, `${name}-1280`);
  await expectAccessible(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, `${name}-390`);
  await expectAccessible(page, name);
  await page.setViewportSize({ width: 1280, height: 900 });
}

function card(page: Page, name: string | RegExp): Locator {
  return page.getByRole('article', { name });
}

test.describe
  .serial('researcher dashboard', () => {
    test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

    test.beforeAll(async () => {
      createMaster(masterEmail, masterPassword);
      const { applicationId } = await registerAndApply(owner.name, owner.email);
      await approveApplication(masterEmail, masterPassword, applicationId);
      // Registered and applied, but approved only after the study exists: they get an invitation.
      collaboratorApplicationId = (await registerAndApply(collaborator.name, collaborator.email))
        .applicationId;
    });

    test('the owner starts empty and creates a study with a password and a collaborator', async ({
      page,
    }, testInfo) => {
      await signInToDashboard(page, owner.email);
      await expect(page.getByText(`Welcome back, ${owner.name}`)).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Your Studies (0)' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Collaborative Studies (0)' })).toBeVisible();
      await expect(page.getByText('No Studies Yet')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create Study', exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Join Study', exact: true })).toBeVisible();
      await bothWidths(page, testInfo, 'dashboard-empty');

      await page.getByRole('tab', { name: 'Collaborative Studies (0)' }).click();
      await expect(page.getByText('No Collaborative Studies Yet')).toBeVisible();
      await bothWidths(page, testInfo, 'dashboard-collaborative-empty');
      await expect(
        page.getByRole('button', { name: 'Join Your First Collaborative Study' }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create Study', exact: true })).toHaveCount(0);
      await page.getByRole('tab', { name: 'Your Studies (0)' }).click();

      await page.getByRole('button', { name: 'Create Your First Study' }).click();
      const form = page.getByRole('dialog', { name: 'Create New Study' });
      await expect(form).toBeVisible();
      const create = form.getByRole('button', { name: 'Create Study' });
      await form.getByLabel('Study Name').fill(STUDY_NAME);
      await form.getByLabel('Description').fill(DESCRIPTION);
      await form.getByLabel('Duration').fill('8 weeks');
      await form.getByLabel('Study Password').fill('abc');
      await expect(create).toBeDisabled();
      await expect(form.getByText('Password must be at least 6 characters')).toBeVisible();
      await form.getByLabel('Study Password').fill(STUDY_PASSWORD);
      await form.getByLabel('Collaborator Emails').fill(` ${collaborator.email} , `);
      await expect(create).toBeEnabled();
      await bothWidths(page, testInfo, 'dialog-create');

      await create.click();
      const message = await expectNotification(page, 'Study Created', /Study code: [A-Z0-9]{6}/, {
        testInfo,
        name: 'notification-study-created',
      });
      studyCode = message.match(/Study code: ([A-Z0-9]{6})/)?.[1] ?? '';
      expect(studyCode).toMatch(/^[A-Z0-9]{6}$/);
      await expect(form).toBeHidden();

      await expect(page.getByRole('tab', { name: 'Your Studies (1)' })).toBeVisible();
      const created = card(page, STUDY_NAME);
      await expect(created).toBeVisible();
      await expect(created).toContainText(studyCode);
      await expect(created).toContainText('0 participants');
      await expect(created.getByText('active')).toBeVisible();
      await expect(created).toContainText('We follow sleep stages');
      await expect(created).toContainText('...');
      await expect(created.getByRole('button', { name: 'Edit Study' })).toBeVisible();
      await bothWidths(page, testInfo, 'dashboard-owner-cards');

      // The code goes to the clipboard.
      await created.getByRole('button', { name: 'Copy study code' }).click();
      await expect(page.getByText('Study code has been copied to clipboard')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(studyCode);

      // The card opens the study.
      await created.getByRole('button', { name: 'View Study' }).click();
      await expect(page).toHaveURL(/\/researcher\/study\/[0-9a-f-]{36}$/);
    });

    test('the invited researcher, approved later, joins through the link in the e-mail', async ({
      page,
    }, testInfo) => {
      await approveApplication(masterEmail, masterPassword, collaboratorApplicationId);
      // The approval and the held invitation go out together, in either order.
      const mail = await latestMail(page, collaborator.email, STUDY_NAME);
      expect(mail.subject).toContain(STUDY_NAME);
      const link = `${mail.text}\n${mail.html}`
        .replaceAll('&amp;', '&')
        .match(/https?:\/\/[^\s"'<>]+\/researcher\/dashboard\?[^\s"'<>]+/)?.[0];
      expect(link, 'dashboard link in the invitation').toBeTruthy();
      const url = new URL(link ?? '');
      expect(url.searchParams.get('code')).toBe(studyCode);
      expect(url.searchParams.get('password')).toBe(STUDY_PASSWORD);

      // Signed out, the link goes through the portal and comes back to the dashboard with it.
      await page.goto(`${url.pathname}${url.search}`);
      await expect(page).toHaveURL(/\/researcher\/auth$/);
      await page.getByLabel('Email', { exact: true }).fill(collaborator.email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();

      // The join dialog opens over the dashboard (which it hides from the accessibility tree).
      const form = page.getByRole('dialog', { name: 'Join Study as Collaborator' });
      await expect(form).toBeVisible();
      await expect(form.getByLabel('Study Code')).toHaveValue(studyCode);
      await expect(form.getByLabel('Study Password')).toHaveValue(STUDY_PASSWORD);
      // The secret leaves the address bar.
      await expect(page).toHaveURL(/\/researcher\/dashboard$/);
      await bothWidths(page, testInfo, 'dialog-join-prefilled');

      await form.getByRole('button', { name: 'Join Study' }).click();
      await expectNotification(
        page,
        'Study Joined',
        'You have successfully joined the study as a collaborator',
      );
      await expect(page.getByRole('tab', { name: 'Collaborative Studies (1)' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      const shared = card(page, STUDY_NAME);
      await expect(shared).toBeVisible();
      await expect(shared.getByText('Collaborator', { exact: true })).toBeVisible();
      await expect(shared).toContainText(`Owner: ${owner.name}`);
      await expect(shared.getByRole('button', { name: 'View Study' })).toBeVisible();
      await expect(shared.getByRole('button', { name: 'Edit Study' })).toHaveCount(0);
      await expect(shared.getByRole('button', { name: /More actions/ })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Create Study', exact: true })).toHaveCount(0);
      await bothWidths(page, testInfo, 'dashboard-collaborator');

      // An empty password is shown once, under the field, and nothing is sent.
      await page.getByRole('button', { name: 'Join Study', exact: true }).click();
      const again = page.getByRole('dialog', { name: 'Join Study as Collaborator' });
      await again.getByLabel('Study Code').fill(studyCode.toLowerCase());
      await expect(again.getByLabel('Study Code')).toHaveValue(studyCode);
      await again.getByRole('button', { name: 'Join Study' }).click();
      await expect(again.getByText('Please enter both study code and password')).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Validation Error' })).toHaveCount(0);
      await again.getByRole('button', { name: 'Cancel' }).click();

      // Following the invitation link again (an existing member): told so, then on the study.
      await page.goto(`${url.pathname}${url.search}`);
      const link2 = page.getByRole('dialog', { name: 'Join Study as Collaborator' });
      await link2.getByRole('button', { name: 'Join Study' }).click();
      await expectNotification(
        page,
        'Already a Collaborator',
        'You are already a collaborator on this study.',
        { testInfo, name: 'notification-already-member' },
      );
      await expect(page).toHaveURL(/\/researcher\/study\/[^/]+$/);
    });

    test('the owner edits the study and changes its password through every rule', async ({
      page,
    }, testInfo) => {
      await signInToDashboard(page, owner.email);
      const owned = card(page, STUDY_NAME);
      await owned.getByRole('button', { name: 'Edit Study' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Study' });
      await expect(edit.getByLabel('Study Name')).toHaveValue(STUDY_NAME);
      await bothWidths(page, testInfo, 'dialog-edit');
      await edit.getByLabel('Study Name').fill('');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expect(edit.getByText('Study name is required')).toBeVisible();
      await edit.getByLabel('Study Name').fill('Night-Shift Sleep Study');
      await edit.getByLabel('Duration').fill('10 weeks');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expectNotification(page, 'Study Updated', 'updated');
      await expect(card(page, 'Night-Shift Sleep Study')).toBeVisible();

      await card(page, 'Night-Shift Sleep Study')
        .getByRole('button', { name: 'Edit Study' })
        .click();
      await page
        .getByRole('dialog', { name: 'Edit Study' })
        .getByRole('button', { name: 'Change Password' })
        .click();
      const change = page.getByRole('dialog', { name: 'Change Study Password' });
      await expect(change).toBeVisible();
      const submit = change.getByRole('button', { name: 'Change Password' });

      // Each rule shows once, in the dialog, never again in a 'Validation Error' modal.
      await submit.click();
      await expect(change.getByText('All password fields are required')).toBeVisible();

      await change.getByLabel('Current Password').fill(STUDY_PASSWORD);
      await change.getByLabel('New Password', { exact: true }).fill(NEW_STUDY_PASSWORD);
      await change.getByLabel('Confirm New Password').fill('something-else');
      await submit.click();
      await expect(change.getByText('New passwords do not match')).toBeVisible();

      await change.getByLabel('New Password', { exact: true }).fill('abc');
      await change.getByLabel('Confirm New Password').fill('abc');
      await submit.click();
      await expect(
        change.getByText('New password must be at least 6 characters long'),
      ).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Validation Error' })).toHaveCount(0);

      await change.getByLabel('Current Password').fill('not-the-password');
      await change.getByLabel('New Password', { exact: true }).fill(NEW_STUDY_PASSWORD);
      await change.getByLabel('Confirm New Password').fill(NEW_STUDY_PASSWORD);
      await bothWidths(page, testInfo, 'dialog-change-password');
      await submit.click();
      await expectNotification(page, 'Invalid Password', 'Current password is incorrect', {
        testInfo,
        name: 'notification-invalid-password',
      });

      await change.getByLabel('Current Password').fill(STUDY_PASSWORD);
      await submit.click();
      await expectNotification(page, 'Password Changed', 'changed');
      await expect(change).toBeHidden();
    });

    test('the new password works for joining; the owner deletes the study', async ({
      page,
    }, testInfo) => {
      await signInToDashboard(page, owner.email);
      // The old password no longer opens the study; the new one does, which for its owner ends in
      // 'You own this study already.' (the password check comes first).
      await page.getByRole('button', { name: 'Join Study', exact: true }).click();
      const join = page.getByRole('dialog', { name: 'Join Study as Collaborator' });
      await join.getByLabel('Study Code').fill(studyCode);
      await join.getByLabel('Study Password').fill(STUDY_PASSWORD);
      await join.getByRole('button', { name: 'Join Study' }).click();
      await expectNotification(page, 'Failed to Join Study', 'Invalid study code or password');
      await join.getByLabel('Study Password').fill(NEW_STUDY_PASSWORD);
      await join.getByRole('button', { name: 'Join Study' }).click();
      const refused = await expectNotification(
        page,
        'Failed to Join Study',
        'You own this study already.',
      );
      expect(refused).not.toContain('Invalid study code or password');
      await join.getByRole('button', { name: 'Cancel' }).click();

      const owned = card(page, 'Night-Shift Sleep Study');
      await owned.getByRole('button', { name: /^More actions for / }).click();
      await page.getByRole('menuitem', { name: 'Delete Study' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete Study?' });
      await expect(confirm).toBeVisible();
      await expect(page.getByRole('menu')).toHaveCount(0);
      await bothWidths(page, testInfo, 'dialog-delete');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expectNotification(page, 'Study Deleted', 'has been deleted');
      await expect(page.getByText('No Studies Yet')).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Your Studies (0)' })).toBeVisible();
    });

    test('a study created without a password takes a first one with no current password', async ({
      page,
    }, testInfo) => {
      await signInToDashboard(page, owner.email);
      await page.getByRole('button', { name: 'Create Your First Study' }).click();
      const form = page.getByRole('dialog', { name: 'Create New Study' });
      await form.getByLabel('Study Name').fill('Open Study');
      await form.getByRole('button', { name: 'Create Study' }).click();
      await expectNotification(page, 'Study Created', /Study code: [A-Z0-9]{6}/);

      const openChange = async () => {
        await card(page, 'Open Study').getByRole('button', { name: 'Edit Study' }).click();
        await page
          .getByRole('dialog', { name: 'Edit Study' })
          .getByRole('button', { name: 'Change Password' })
          .click();
        const change = page.getByRole('dialog', { name: 'Change Study Password' });
        await expect(change).toBeVisible();
        return change;
      };
      const first = await openChange();
      await expect(first).toContainText('"Open Study" has no password yet.');
      await expect(first.getByLabel('Current Password')).toHaveCount(0);
      await first.getByLabel('New Password', { exact: true }).fill(STUDY_PASSWORD);
      await first.getByLabel('Confirm New Password').fill(STUDY_PASSWORD);
      await bothWidths(page, testInfo, 'dialog-first-password');
      await first.getByRole('button', { name: 'Set Password' }).click();
      await expectNotification(page, 'Password Changed', 'changed');
      await expect(first).toBeHidden();

      // From now on the study has a password: changing it asks for the current one.
      const next = await openChange();
      await expect(next.getByLabel('Current Password')).toBeVisible();
      await expect(next.getByRole('button', { name: 'Change Password' })).toBeVisible();
    });
  });
