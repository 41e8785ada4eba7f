import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
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
  };
}

async function expectCounts(page: Page, counts: Counts) {
  const stat = (label: string) =>
    page.getByRole('group', { name: label }).getByTestId('stat-value');
  await expect(stat('Pending Applications')).toHaveText(String(counts.pending));
  await expect(stat('Active Researchers')).toHaveText(String(counts.active));
  await expect(stat('Total Applications')).toHaveText(
    String(counts.pending + counts.approved + counts.rejected),
  );
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
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, masterEmail, masterPassword);
    await expect(page).toHaveURL(/\/master\/dashboard$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Master Account Dashboard' }),
    ).toBeVisible();

    const counts: Counts = { ...baseline, pending: baseline.pending + 3 };
    await expectCounts(page, counts);
    const pendingTable = page.getByRole('table', { name: 'Pending applications' });
    await expect(
      pendingTable.getByRole('row', { name: new RegExp(nameOf(waiting)) }),
    ).toContainText('No description provided');
    await shot(page, testInfo, 'tab-pending');

    // Details and download.
    await page.getByRole('button', { name: `View Details: ${nameOf(approvee)}` }).click();
    const details = page.getByRole('dialog', { name: 'Application Details' });
    await expect(details).toContainText(approvee.email);
    await expect(details).toContainText('4/12/1988');
    await expect(details).toContainText('affiliation-letter.pdf');
    await expect(details).toContainText(/\d+\.\d{2} MB · application\/pdf/);
    await shot(page, testInfo, 'dialog-details');
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
    await reason.fill('Missing proof of affiliation.');
    await expect(rejectButton).toBeEnabled();
    await shot(page, testInfo, 'dialog-reject');
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
    await approvedRow
      .getByRole('button', { name: `View Application: ${nameOf(approvee)}` })
      .click();
    const applicationDialog = page.getByRole('dialog', { name: /Researcher Application/ });
    await expect(applicationDialog).toContainText('Postdoctoral Fellow');
    await expect(applicationDialog).toContainText('Welcome aboard.');
    await shot(page, testInfo, 'dialog-researcher-application');
    await applicationDialog.getByRole('button', { name: 'Close' }).click();

    // Rejected tab, its details, then reset.
    await page.getByRole('tab', { name: /^Rejected Applications/ }).click();
    const rejectedTable = page.getByRole('table', { name: 'Rejected applications' });
    const rejectedRow = rejectedTable.getByRole('row', { name: new RegExp(nameOf(rejectee)) });
    await expect(rejectedRow).toContainText('Step counts and mood.');
    await shot(page, testInfo, 'tab-rejected');
    await rejectedRow.getByRole('button', { name: `View Details: ${nameOf(rejectee)}` }).click();
    const rejectedDialog = page.getByRole('dialog', { name: /Rejected Application/ });
    await expect(rejectedDialog).toContainText('Missing proof of affiliation.');
    await expect(rejectedDialog).toContainText(rejectee.email);
    await shot(page, testInfo, 'dialog-rejected-details');
    await rejectedDialog.getByRole('button', { name: 'Close' }).click();
    await rejectedRow
      .getByRole('button', { name: `Reset for Resubmission: ${nameOf(rejectee)}` })
      .click();
    await expect(page.getByText('Application reset for resubmission')).toBeVisible();
    await expect(
      rejectedTable.getByRole('row', { name: new RegExp(nameOf(rejectee)) }),
    ).toHaveCount(0);
    counts.rejected -= 1;
    await expectCounts(page, counts);

    // Phone width: the table scrolls inside its card, the page itself does not.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: /^Pending Applications/ }).click();
    await expect(page.getByRole('table', { name: 'Pending applications' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, testInfo, 'phone-tab-pending');
    await page.getByRole('button', { name: `View Details: ${nameOf(waiting)}` }).click();
    await expect(page.getByRole('dialog', { name: 'Application Details' })).toBeVisible();
    await shot(page, testInfo, 'phone-dialog-details');
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

  test('the reset applicant may apply again', async ({ request }) => {
    const response = await request.post('/api/admin/researcher-applications', {
      headers: { Authorization: `Bearer ${rejectee.token}` },
      data: {
        firstName: rejectee.firstName,
        lastName: rejectee.lastName,
        email: rejectee.email,
        dateOfBirth: '1988-04-12',
        phoneNumber: '(555) - 201 - 3344',
        institution: 'Northfield University',
        position: 'Postdoctoral Fellow',
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  });
});
