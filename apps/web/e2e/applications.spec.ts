import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { expectAccessible } from './a11y';
import { createMaster, fetchNew, latestMail, PASSWORD, shot, signUp, uniqueEmail } from './helpers';

/** A small but valid PDF: the server checks documents by their content, not by their name. */
const SAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
    '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
    'trailer << /Root 1 0 R >>\n%%EOF\n',
);

/**
 * A full-page screenshot from the top: scrolled down, the sticky navigation bar would be drawn
 * across the middle of the page. The focused field is left, so no focus ring shows either. Every
 * screen shot is checked with axe at the same width.
 */
async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await shot(page, testInfo, name);
  await expectAccessible(page, name);
}

interface Applicant {
  firstName: string;
  lastName: string;
  institution: string;
  position: string;
}

async function fillApplication(page: Page, applicant: Applicant) {
  await page.getByLabel('First Name').fill(applicant.firstName);
  await page.getByLabel('Last Name').fill(applicant.lastName);
  await page.getByLabel('Date of Birth').fill('1988-07-25');
  // Typed key by key, so the formatter runs as a person would see it.
  await page.getByLabel('Phone Number').pressSequentially('6505550142');
  await expect(page.getByLabel('Phone Number')).toHaveValue('(650) 555-0142');
  await page.getByLabel('Institution/University').fill(applicant.institution);
  await page.getByLabel('Position/Role').fill(applicant.position);
  await page.getByLabel('Department').fill('Cardiology');
  await page.getByLabel('Research Area').fill('Sleep and heart rate');
  await page
    .getByLabel('Description')
    .fill('A twelve-week study of resting heart rate and sleep stages in adults over 50.');
}

async function submitAndExpectStatusPage(page: Page) {
  const submit = page.getByRole('button', { name: 'Submit Application' });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText('Application Submitted Successfully!')).toBeVisible();
  // Stays for about 3 seconds, then the status page takes over.
  await expect(page).toHaveURL(/\/researcher\/register$/);
  await expect(page).toHaveURL(/\/researcher\/application-status$/, { timeout: 10_000 });
  await expect(
    page.getByRole('heading', { level: 1, name: 'Application Under Review' }),
  ).toBeVisible();
}

/** Signs the master in through the API and rejects the applicant's pending application. */
async function rejectThroughApi(
  baseURL: string,
  master: { email: string; password: string },
  applicantEmail: string,
  reviewNotes: string,
) {
  const login = await fetchNew(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(master),
  });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };

  const list = await fetchNew(
    `${baseURL}/api/admin/researcher-applications?email=${encodeURIComponent(applicantEmail)}`,
    { headers: auth },
  );
  expect(list.status).toBe(200);
  const { applications } = (await list.json()) as {
    applications: { id: string; status: string }[];
  };
  const pending = applications.find((a) => a.status === 'pending');
  expect(pending, 'the pending application').toBeTruthy();

  const review = await fetchNew(
    `${baseURL}/api/admin/researcher-applications/${pending?.id}/review`,
    {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'reject', reviewNotes }),
    },
  );
  expect(review.status).toBe(200);
}

test.describe('researcher applications', () => {
  test('a new researcher applies with a document and waits for review', async ({
    page,
  }, testInfo) => {
    const email = uniqueEmail('apply');
    await signUp(page, 'Rosalind Franklin', email);
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Researcher Registration' }),
    ).toBeVisible();

    // The e-mail is the account's and cannot be changed; the names come from the account.
    await expect(page.getByLabel('Email Address')).toHaveValue(email);
    await expect(page.getByLabel('Email Address')).toBeDisabled();
    await expect(page.getByLabel('First Name')).toHaveValue('Rosalind');
    await expect(page.getByRole('button', { name: 'Submit Application' })).toBeDisabled();

    await fillApplication(page, {
      firstName: 'Rosalind',
      lastName: 'Franklin',
      institution: "King's College London",
      position: 'Research Associate',
    });
    await page.getByLabel('Verification documents').setInputFiles({
      name: 'appointment-letter.pdf',
      mimeType: 'application/pdf',
      buffer: SAMPLE_PDF,
    });
    const documents = page.getByRole('list', { name: 'Verification Documents' });
    await expect(documents.getByText('appointment-letter.pdf')).toBeVisible();
    // Sizes read in KB with 1 decimal or MB with 2: under a kilobyte, never '0.0 KB'.
    expect(SAMPLE_PDF.length).toBeLessThan(1024);
    await expect(
      documents.getByText(`${Math.max(0.1, SAMPLE_PDF.length / 1024).toFixed(1)} KB`),
    ).toBeVisible();
    await screenshot(page, testInfo, 'application-form-filled');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, testInfo, 'application-form-filled-phone');
    await page.setViewportSize({ width: 1280, height: 720 });

    const upload = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/admin/researcher-applications'),
    );
    await page.getByRole('button', { name: 'Submit Application' }).click();
    expect((await upload).headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    await expect(page.getByText('Application Submitted Successfully!')).toBeVisible();
    await expect(page.getByRole('main').getByText(email)).toBeVisible();
    await screenshot(page, testInfo, 'application-submitted');
    await expect(page).toHaveURL(/\/researcher\/application-status$/, { timeout: 10_000 });

    await expect(
      page.getByRole('heading', { level: 1, name: 'Application Under Review' }),
    ).toBeVisible();
    await expect(page.getByRole('main').getByText('Pending Review')).toBeVisible();
    await expect(page.getByRole('main').getByText('Rosalind Franklin')).toBeVisible();
    await expect(page.getByRole('main').getByText(email)).toBeVisible();
    await expect(page.getByRole('main').getByText("King's College London")).toBeVisible();
    await expect(page.getByText('Please do not submit multiple applications')).toBeVisible();
    await screenshot(page, testInfo, 'status-pending');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, testInfo, 'status-pending-phone');
    await page.setViewportSize({ width: 1280, height: 720 });

    const mail = await latestMail(page, email);
    expect(mail.subject).toBe('We received your researcher application');

    // A second application is impossible: the form sends a pending applicant to the status page.
    await page.goto('/researcher/register');
    await expect(page).toHaveURL(/\/researcher\/application-status$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Application Under Review' }),
    ).toBeVisible();
    // And after a reload the stored session still leads there.
    await page.reload();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Application Under Review' }),
    ).toBeVisible();
  });

  test('a rejected application shows its reason, and the researcher applies again', async ({
    page,
    baseURL,
  }, testInfo) => {
    const master = { email: uniqueEmail('master'), password: PASSWORD };
    createMaster(master.email, master.password);

    const email = uniqueEmail('rejected');
    await signUp(page, 'Chien-Shiung Wu', email);
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await fillApplication(page, {
      firstName: 'Chien-Shiung',
      lastName: 'Wu',
      institution: 'Columbia University',
      position: 'Professor of Physics',
    });
    // No documents: sent as JSON.
    const upload = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/admin/researcher-applications'),
    );
    await submitAndExpectStatusPage(page);
    expect((await upload).headers()['content-type']).toBe('application/json');

    const reason = 'Please attach proof of your faculty appointment.';
    await rejectThroughApi(baseURL ?? '', master, email, reason);

    await page.reload();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Application Not Approved' }),
    ).toBeVisible();
    await expect(page.getByRole('main').getByText('Chien-Shiung Wu')).toBeVisible();
    await expect(page.getByRole('main').getByText(email)).toBeVisible();
    await expect(page.getByRole('main').getByText('Columbia University')).toBeVisible();
    await expect(page.getByRole('main').getByText(reason)).toBeVisible();
    const today = new Intl.DateTimeFormat('en-US', {
      month: 'numeric',
      day: 'numeric',
      year: 'numeric',
    }).format(new Date());
    await expect(page.getByText(today, { exact: true })).toBeVisible();
    await screenshot(page, testInfo, 'status-rejected');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, testInfo, 'status-rejected-phone');
    await page.setViewportSize({ width: 1280, height: 720 });

    await page.getByRole('link', { name: 'Resubmit Application' }).click();
    await expect(page).toHaveURL(/\/researcher\/register$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Researcher Registration' }),
    ).toBeVisible();
    // Every field of the last application is offered again.
    await expect(page.getByLabel('First Name')).toHaveValue('Chien-Shiung');
    await expect(page.getByLabel('Last Name')).toHaveValue('Wu');
    await expect(page.getByLabel('Date of Birth')).toHaveValue('1988-07-25');
    await expect(page.getByLabel('Phone Number')).toHaveValue('(650) 555-0142');
    await expect(page.getByLabel('Institution/University')).toHaveValue('Columbia University');
    await expect(page.getByLabel('Position/Role')).toHaveValue('Professor of Physics');
    await expect(page.getByLabel('Department')).toHaveValue('Cardiology');
    await expect(page.getByLabel('Research Area')).toHaveValue('Sleep and heart rate');
    await expect(page.getByLabel('Description')).toHaveValue(
      'A twelve-week study of resting heart rate and sleep stages in adults over 50.',
    );
    await expect(page.getByRole('button', { name: 'Submit Application' })).toBeEnabled();
    await screenshot(page, testInfo, 'resubmit-prefilled');
    await page.getByLabel('Verification documents').setInputFiles({
      name: 'faculty-appointment.pdf',
      mimeType: 'application/pdf',
      buffer: SAMPLE_PDF,
    });
    await submitAndExpectStatusPage(page);
    await expect(page.getByRole('main').getByText('Pending Review')).toBeVisible();
  });
});
