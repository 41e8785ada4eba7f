import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectAccessible, expectAccessibleAtBothWidths } from './a11y';
import {
  type ApiApplicant,
  apiToken,
  createApplicantViaApi,
  createMaster,
  latestMail,
  PASSWORD,
  samplePdf,
  shot,
  signIn,
  signOut,
  uniqueEmail,
} from './helpers';

interface Counts {
  pending: number;
  approved: number;
  rejected: number;
  active: number;
  /** Every application ever submitted, reset ones included. */
  total: number;
}

/** The counts as the server has them, read the way the dashboard reads them (limit=1). */
async function serverCounts(request: APIRequestContext, token: string): Promise<Counts> {
  const headers = { Authorization: `Bearer ${token}` };
  const total = async (path: string) => {
    const response = await request.get(path, { headers });
    expect(response.ok()).toBe(true);
    return ((await response.json()) as { totalCount: number }).totalCount;
  };
  const list = '/api/admin/researcher-applications?limit=1&status=';
  return {
    pending: await total(`${list}pending`),
    approved: await total(`${list}approved`),
    rejected: await total(`${list}rejected`),
    active: await total('/api/admin/researchers?status=approved&limit=1'),
    total: await total('/api/admin/researcher-applications?limit=1'),
  };
}

async function expectCounts(page: Page, counts: Counts) {
  const stat = (label: string) =>
    page.getByRole('group', { name: label }).getByTestId('stat-value');
  await expect(stat('Pending Applications')).toHaveText(String(counts.pending));
  await expect(stat('Active Researchers')).toHaveText(String(counts.active));
  await expect(stat('Total Applications')).toHaveText(String(counts.total));
  await expect(stat('Rejected Applications')).toHaveText(String(counts.rejected));
  await expect(
    page.getByRole('tab', { name: `Pending Applications (${counts.pending})` }),
  ).toBeVisible();
  await expect(
    page.getByRole('tab', { name: `Approved Researchers (${counts.active})` }),
  ).toBeVisible();
  await expect(
    page.getByRole('tab', { name: `Rejected Applications (${counts.rejected})` }),
  ).toBeVisible();
}

const nameOf = (a: ApiApplicant) => `${a.firstName} ${a.lastName}`;

test.describe('master dashboard', () => {
  test.describe.configure({ mode: 'serial' });

  const masterEmail = uniqueEmail('master-dash');
  const masterPassword = `${PASSWORD}-master`;
  const suffix = Math.random().toString(36).slice(2, 6);
  let approvee: ApiApplicant;
  let rejectee: ApiApplicant;
  let waiting: ApiApplicant;
  let baseline: Counts;

  test.beforeAll(async ({ request }) => {
    createMaster(masterEmail, masterPassword);
    const masterToken = await apiToken(request, masterEmail, masterPassword);
    // Other specs of the same run may have left applications behind: count from where they are.
    baseline = await serverCounts(request, masterToken);
    approvee = await createApplicantViaApi(request, {
      firstName: 'Rosalind',
      lastName: `Franklin${suffix}`,
      description: 'Heart-rate variability during night shifts, with consumer wearables.',
      document: {
        name: 'affiliation-letter.pdf',
        mimeType: 'application/pdf',
        buffer: samplePdf(),
      },
    });
    rejectee = await createApplicantViaApi(request, {
      firstName: 'Alan',
      lastName: `Turing${suffix}`,
      description: 'Step counts and mood.',
    });
    waiting = await createApplicantViaApi(request, {
      firstName: 'Grace',
      lastName: `Hopper${suffix}`,
    });
  });

  test('review flow: counts, details and download, approve, reject, reset', async ({
    page,
  }, testInfo) => {
    // One long journey at two widths with fourteen full-page screenshots: more than 30 s on a busy machine.
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, masterEmail, masterPassword);
    await expect(page).toHaveURL(/\/master\/dashboard$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Master Account Dashboard' }),
    ).toBeVisible();

    const counts: Counts = {
      ...baseline,
      pending: baseline.pending + 3,
      total: baseline.total + 3,
    };
    await expectCounts(page, counts);
    const pendingTable = page.getByRole('table', { name: 'Pending applications' });
    await expect(
      pendingTable.getByRole('row', { name: new RegExp(nameOf(waiting)) }),
    ).toContainText('No description provided');
    await shot(page, testInfo, 'tab-pending');
    await expectAccessibleAtBothWidths(page, 'tab-pending');

    // Details and download.
    await page.getByRole('button', { name: `View Details: ${nameOf(approvee)}` }).click();
    const details = page.getByRole('dialog', { name: 'Application Details' });
    await expect(details).toContainText(approvee.email);
    await expect(details).toContainText('4/12/1988');
    await expect(details).toContainText('affiliation-letter.pdf');
    // Document sizes read in KB with 1 decimal or MB with 2; this file is under 1 KB.
    expect(samplePdf().length).toBeLessThan(1024);
    await expect(details).toContainText(
      `${Math.max(0.1, samplePdf().length / 1024).toFixed(1)} KB · application/pdf`,
    );
    await expect(details).not.toContainText('0.0 KB');
    await shot(page, testInfo, 'dialog-details');
    await expectAccessibleAtBothWidths(page, 'dialog-details');
    const downloading = page.waitForEvent('download');
    await details.getByRole('button', { name: 'Download affiliation-letter.pdf' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('affiliation-letter.pdf');
    const saved = readFileSync(await download.path());
    expect(saved.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(saved.equals(samplePdf())).toBe(true);

    // Approve with notes, from the details dialog.
    await details.getByRole('button', { name: 'Approve' }).click();
    const approveDialog = page.getByRole('dialog', { name: 'Approve Application' });
    await approveDialog.getByRole('textbox', { name: 'Approval Notes' }).fill('Welcome aboard.');
    await shot(page, testInfo, 'dialog-approve');
    await expectAccessibleAtBothWidths(page, 'dialog-approve');
    await approveDialog.getByRole('button', { name: 'Approve' }).click();
    await expect(approveDialog).toBeHidden();
    await expect(page.getByText('Application approved')).toBeVisible();
    counts.pending -= 1;
    counts.approved += 1;
    counts.active += 1;
    await expectCounts(page, counts);

    // Reject: disabled until a reason is typed.
    await page.getByRole('button', { name: `Reject: ${nameOf(rejectee)}` }).click();
    const rejectDialog = page.getByRole('dialog', { name: 'Reject Application' });
    const reason = rejectDialog.getByRole('textbox', { name: 'Rejection Reason *' });
    const rejectButton = rejectDialog.getByRole('button', { name: 'Reject' });
    await expect(rejectDialog).toContainText('Rejection reason is required');
    await expect(rejectButton).toBeDisabled();
    await reason.fill('   ');
    await reason.blur();
    await expect(rejectDialog).toContainText(
      'Rejection reason is required when rejecting an application.',
    );
    await expect(rejectButton).toBeDisabled();
    await shot(page, testInfo, 'dialog-reject-empty');
    await expectAccessibleAtBothWidths(page, 'dialog-reject-empty');
    await reason.fill('Missing proof of affiliation.');
    await expect(rejectButton).toBeEnabled();
    await shot(page, testInfo, 'dialog-reject');
    await expectAccessibleAtBothWidths(page, 'dialog-reject');
    await rejectButton.click();
    await expect(rejectDialog).toBeHidden();
    counts.pending -= 1;
    counts.rejected += 1;
    await expectCounts(page, counts);

    // Approved tab.
    await page.getByRole('tab', { name: /^Approved Researchers/ }).click();
    const researchers = page.getByRole('table', { name: 'Approved researchers' });
    const approvedRow = researchers.getByRole('row', { name: new RegExp(nameOf(approvee)) });
    await expect(approvedRow).toContainText('Northfield University');
    await expect(approvedRow).toContainText('Cardiology');
    // Registering through the API signed the applicant in, so a last login exists already
    // ('Never' is covered by the component tests).
    await expect(approvedRow).not.toContainText('Never');
    await shot(page, testInfo, 'tab-approved');
    await expectAccessibleAtBothWidths(page, 'tab-approved');
    await approvedRow
      .getByRole('button', { name: `View Application: ${nameOf(approvee)}` })
      .click();
    const applicationDialog = page.getByRole('dialog', { name: /Researcher Application/ });
    await expect(applicationDialog).toContainText('Postdoctoral Fellow');
    await expect(applicationDialog).toContainText('Welcome aboard.');
    await shot(page, testInfo, 'dialog-researcher-application');
    await expectAccessibleAtBothWidths(page, 'dialog-researcher-application');
    await applicationDialog.getByRole('button', { name: 'Close' }).click();

    // Rejected tab, its details, then reset.
    await page.getByRole('tab', { name: /^Rejected Applications/ }).click();
    const rejectedTable = page.getByRole('table', { name: 'Rejected applications' });
    const rejectedRow = rejectedTable.getByRole('row', { name: new RegExp(nameOf(rejectee)) });
    await expect(rejectedRow).toContainText('Step counts and mood.');
    await shot(page, testInfo, 'tab-rejected');
    await expectAccessibleAtBothWidths(page, 'tab-rejected');
    await rejectedRow.getByRole('button', { name: `View Details: ${nameOf(rejectee)}` }).click();
    const rejectedDialog = page.getByRole('dialog', { name: /Rejected Application/ });
    await expect(rejectedDialog).toContainText('Missing proof of affiliation.');
    await expect(rejectedDialog).toContainText(rejectee.email);
    await shot(page, testInfo, 'dialog-rejected-details');
    await expectAccessibleAtBothWidths(page, 'dialog-rejected-details');
    await rejectedDialog.getByRole('button', { name: 'Close' }).click();
    const resetButton = rejectedRow.getByRole('button', {
      name: `Reset for Resubmission: ${nameOf(rejectee)}`,
    });
    // One click only asks; Cancel changes nothing.
    await resetButton.click();
    const confirmReset = page.getByRole('alertdialog', { name: 'Reset for Resubmission?' });
    await expect(confirmReset).toContainText(nameOf(rejectee));
    await shot(page, testInfo, 'dialog-reset-confirm');
    await expectAccessibleAtBothWidths(page, 'dialog-reset-confirm');
    await confirmReset.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirmReset).toBeHidden();
    await expect(rejectedRow).toBeVisible();
    await expectCounts(page, counts);
    await resetButton.click();
    await confirmReset.getByRole('button', { name: 'Reset', exact: true }).click();
    await expect(page.getByText('Application reset for resubmission')).toBeVisible();
    await expect(
      rejectedTable.getByRole('row', { name: new RegExp(nameOf(rejectee)) }),
    ).toHaveCount(0);
    // It leaves the rejected list but stays in the history: the total does not drop.
    counts.rejected -= 1;
    await expectCounts(page, counts);

    // Phone width: the rows are cards with every action on screen; nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: /^Pending Applications/ }).click();
    const cards = page.getByRole('list', { name: 'Pending applications' });
    await expect(cards).toBeVisible();
    // No table of applications (the notifications card below keeps its small refusals table).
    await expect(page.getByRole('table').filter({ hasText: nameOf(waiting) })).toHaveCount(0);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const waitingCard = cards.getByRole('listitem', { name: nameOf(waiting) });
    await expect(waitingCard).toContainText(waiting.email);
    for (const action of ['View Details', 'Approve', 'Reject']) {
      const button = waitingCard.getByRole('button', { name: `${action}: ${nameOf(waiting)}` });
      await expect(button).toBeInViewport();
      const box = await button.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    }
    // The e-mail address is whole on one line (cut with an ellipsis if need be), never broken.
    const email = waitingCard.getByText(waiting.email, { exact: true });
    expect(await email.evaluate((el) => el.getClientRects().length)).toBe(1);
    await expect(email).toHaveAttribute('title', waiting.email);
    // Every tab label can be reached by scrolling the tab row.
    for (const name of [
      /^Pending Applications/,
      /^Approved Researchers/,
      /^Rejected Applications/,
    ]) {
      await page.getByRole('tab', { name }).scrollIntoViewIfNeeded();
      await expect(page.getByRole('tab', { name })).toBeInViewport();
    }
    await shot(page, testInfo, 'phone-tab-pending');
    await expectAccessible(page, 'phone-tab-pending');
    // The only rejected application was reset above: the tab shows its empty state.
    await page.getByRole('tab', { name: /^Rejected Applications/ }).click();
    await expect(page.getByText('No Rejected Applications')).toBeVisible();
    await shot(page, testInfo, 'phone-tab-rejected');
    await expectAccessible(page, 'phone-tab-rejected');
    await page.getByRole('tab', { name: /^Approved Researchers/ }).click();
    await expect(page.getByRole('list', { name: 'Approved researchers' })).toBeVisible();
    await shot(page, testInfo, 'phone-tab-approved');
    await expectAccessible(page, 'phone-tab-approved');
    await page.getByRole('tab', { name: /^Pending Applications/ }).click();
    await page.getByRole('button', { name: `View Details: ${nameOf(waiting)}` }).click();
    await expect(page.getByRole('dialog', { name: 'Application Details' })).toBeVisible();
    await shot(page, testInfo, 'phone-dialog-details');
    await expectAccessible(page, 'phone-dialog-details');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    await page.setViewportSize({ width: 1280, height: 900 });
    await signOut(page);
  });

  test('the approved researcher reaches the researcher dashboard and has the e-mail', async ({
    page,
  }) => {
    const mail = await latestMail(page, approvee.email);
    expect(mail.subject).toBe('Your researcher application was approved');
    expect(mail.text).toContain('Welcome aboard.');
    await signIn(page, approvee.email, approvee.password);
    await expect(page).toHaveURL(/\/researcher\/dashboard$/);
  });

  test('the reset applicant starts from every field they gave and applies again', async ({
    page,
  }) => {
    // The reset archived the application and the account is 'noprofile' again: the register
    // form must still hold everything the rejected application said.
    await signIn(page, rejectee.email, rejectee.password);
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Researcher Registration' }),
    ).toBeVisible();
    await expect(page.getByLabel('First Name')).toHaveValue(rejectee.firstName);
    await expect(page.getByLabel('Last Name')).toHaveValue(rejectee.lastName);
    await expect(page.getByLabel('Date of Birth')).toHaveValue('1988-04-12');
    await expect(page.getByLabel('Phone Number')).toHaveValue('(555) 201-3344');
    await expect(page.getByLabel('Institution/University')).toHaveValue('Northfield University');
    await expect(page.getByLabel('Position/Role')).toHaveValue('Postdoctoral Fellow');
    await expect(page.getByLabel('Department')).toHaveValue('Cardiology');
    await expect(page.getByLabel('Research Area')).toHaveValue('Sleep and heart rate');
    await expect(page.getByLabel('Description')).toHaveValue('Step counts and mood.');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect(page.getByText('Application Submitted Successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/researcher\/application-status$/, { timeout: 10_000 });
  });
});
