import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { AUDIT_TEXTS } from '@research/contracts';
import { expectAccessibleAtBothWidths } from './a11y';
import {
  apiJson,
  approveApplication,
  consent,
  createMaster,
  expectNoSidewaysScroll,
  loginToken,
  PASSWORD,
  registerAndApply,
  SANDBOX_URL,
  samplePdf,
  signIn,
  uniqueEmail,
} from './helpers';

/**
 * Electronic consent, as a new owner and a participant meet it: the owner writes the consent form
 * on the study screen (Markdown with a live preview) and publishes it; a participant on a phone
 * verifies their address, reads the form to its end, ticks the statement, types their name and
 * signs, downloads their copy and connects Google; the owner sees the signature, publishes
 * version 2 asking everyone again, and the participant is asked again when they come back, signs
 * and withdraws; the owner's trail shows each step.
 */

const PHONE = { width: 390, height: 844 };
const masterEmail = uniqueEmail('consent-master');
const masterPassword = `${PASSWORD}-master`;
const owner = { name: 'Grace Hopper', email: uniqueEmail('consent-owner') };
const participantEmail = uniqueEmail('consent-participant');
const STATEMENT = 'I agree that my heart-rate data is collected';
const FORM = [
  '# Heart Rate at Night',
  '',
  'We collect your **heart rate** and sleep from your Fitbit for four weeks.',
  '',
  '<b>raw html</b>',
  '',
  ...Array.from({ length: 30 }, (_, i) => `- Point ${i + 1} of the study information.`),
  '',
  'You may withdraw at any time from your study link.',
].join('\n');

let studyId = '';
let studyCode = '';

interface InboxMessage {
  id: string;
  subject: string;
  text: string;
}

async function inbox(page: Page, to: string): Promise<InboxMessage[]> {
  const response = await page.request.get(
    `${SANDBOX_URL}/inbox/messages.json?to=${encodeURIComponent(to)}`,
  );
  return ((await response.json()) as { messages: InboxMessage[] }).messages;
}

/** The code of a verification mail that was not there before (`seen` ids). */
async function newCode(page: Page, to: string, seen: Set<string>): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const mail = (await inbox(page, to)).find(
          (m) => !seen.has(m.id) && m.subject.startsWith('Your verification code'),
        );
        code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
        return code;
      },
      { timeout: 60_000 },
    )
    .not.toBe('');
  return code;
}

/** The direct flow up to the verified code, from the study link. */
async function verifyFromLink(page: Page) {
  await page.goto(
    `/participant/enroll?code=${studyCode}&email=${encodeURIComponent(participantEmail)}`,
  );
  await page.getByRole('button', { name: 'Verify Study Code' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Date of Birth').fill('1990-05-17');
  const seen = new Set((await inbox(page, participantEmail)).map((m) => m.id));
  await page.getByRole('button', { name: 'Enroll and Connect Fitbit' }).click();
  await page.getByLabel('Verification Code').fill(await newCode(page, participantEmail, seen));
  await page.getByRole('button', { name: 'Verify Code' }).click();
}

/** Reads the form to its end (the statements and the name open then), ticks, types, signs. */
async function readAndSign(page: Page, fullName: string) {
  const form = page.getByRole('document', { name: 'Consent form' });
  await expect(form).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign' })).toBeDisabled();
  await expect(page.getByLabel(STATEMENT)).toBeDisabled();
  await form.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await page.getByLabel(STATEMENT).check();
  await page.getByLabel('Your full name').fill(fullName);
  await expectNoSidewaysScroll(page);
  await page.getByRole('button', { name: 'Sign' }).click();
  await expect(page.getByRole('heading', { name: 'Consent signed' })).toBeVisible();
}

async function openConsentTab(page: Page) {
  await page.goto(`/researcher/study/${studyId}`);
  await page.getByRole('tab', { name: 'Consent' }).click();
  await expect(page.getByRole('heading', { name: 'Consent form', level: 2 })).toBeVisible();
}

async function publish(page: Page, reconsent: boolean) {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish this version?' });
  await expect(dialog).toBeVisible();
  if (reconsent) await dialog.getByLabel('Existing participants must consent again').check();
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toBeHidden();
}

test.describe
  .serial('electronic consent', () => {
    // Each test signs in or verifies by mail, through the sandbox's relay; a loaded CI machine is slow.
    test.describe.configure({ timeout: 150_000 });
    test.beforeAll(async () => {
      createMaster(masterEmail, masterPassword);
      const { applicationId } = await registerAndApply(owner.name, owner.email);
      await approveApplication(masterEmail, masterPassword, applicationId);
      const token = await loginToken(owner.email);
      // The default settings: consent required. Self-enrolment on, so the link works for anyone.
      const { study } = await apiJson<{
        study: { id: string; studyCode: string; settings: { consentRequired: boolean } };
      }>('/api/auth/create-study', {
        method: 'POST',
        token,
        body: { name: 'Heart Rate at Night', settings: { allowSelfEnrollment: true } },
      });
      expect(study.settings.consentRequired).toBe(true);
      studyId = study.id;
      studyCode = study.studyCode;
    });

    test('the owner writes the consent form with a live preview and publishes it', async ({
      page,
    }) => {
      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      await openConsentTab(page);
      await expect(page.getByText(/participants cannot connect until you publish/)).toBeVisible();

      // The PDF picker opens from its button; the owner sets the PDF aside and writes Markdown.
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: 'Choose PDF' }).click(),
      ]);
      await chooser.setFiles({
        name: 'consent-form.pdf',
        mimeType: 'application/pdf',
        buffer: samplePdf('Consent form'),
      });
      await expect(page.getByText('Draft form: consent-form.pdf')).toBeVisible();
      await page.getByRole('button', { name: 'Write in Markdown instead' }).click();

      await page.getByLabel('Consent form (Markdown)').fill(FORM);
      const preview = page.getByRole('region', { name: 'Preview' });
      await expect(preview.getByRole('heading', { name: 'Heart Rate at Night' })).toBeVisible();
      await expect(preview.locator('strong', { hasText: 'heart rate' })).toBeVisible();
      // Raw HTML is never rendered.
      await expect(preview.locator('b')).toHaveCount(0);
      await page.getByRole('button', { name: 'Add statement' }).click();
      await page.getByRole('textbox', { name: 'Statement 1' }).fill(STATEMENT);
      await publish(page, false);
      await expect(page.getByText('Version 1', { exact: true })).toBeVisible();
      await expect(page.getByText('In force', { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Got it' }).click();
      await expectAccessibleAtBothWidths(page, 'consent tab');
    });

    test('a participant reads, signs, downloads their copy and connects on a phone', async ({
      page,
    }) => {
      await page.setViewportSize(PHONE);
      await verifyFromLink(page);
      await expectAccessibleAtBothWidths(page, 'consent step');
      await readAndSign(page, 'Ada Lovelace');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download my copy' }).click(),
      ]);
      const copy = readFileSync((await download.path()) ?? '');
      expect(copy.subarray(0, 5).toString()).toBe('%PDF-');
      // The copy is mailed too, as a link.
      await expect
        .poll(async () =>
          (await inbox(page, participantEmail)).some((m) =>
            m.subject.startsWith('Your signed consent'),
          ),
        )
        .toBe(true);

      await page.getByRole('button', { name: 'Continue' }).click();
      await consent(page, 'alex.rivera@gmail.test');
      await expect(page.getByText('Fitbit Connected Successfully!')).toBeVisible();
    });

    test('the owner sees the signature and publishes version 2; the participant is asked again', async ({
      page,
      browser,
    }) => {
      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      await openConsentTab(page);
      const signatures = page.getByRole('region', { name: 'Signatures' });
      // Who signed (the typed name), which version, from which address, and the record's PDF.
      await expect(signatures.getByText('Ada Lovelace', { exact: true })).toBeVisible();
      await expect(signatures.getByText('Signed as')).toBeVisible();
      await expect(
        signatures.getByRole('button', { name: /^Record P[0-9a-f]{16} v1$/ }),
      ).toBeVisible();

      await page
        .getByLabel('Consent form (Markdown)')
        .fill(`${FORM}\n\nWe now also collect sleep stages.`);
      await publish(page, true);
      await expect(page.getByText('Version 2', { exact: true })).toBeVisible();
      await expect(page.getByText(/Consent pending/).first()).toBeVisible();

      const phone = await browser.newPage({ viewport: PHONE });
      await verifyFromLink(phone);
      await expect(
        phone.getByText(/The study has a new version of its consent form/),
      ).toBeVisible();
      await expect(phone.getByText('Consent form · Version 2')).toBeVisible();
      await readAndSign(phone, 'Ada Lovelace');
      await phone.getByRole('button', { name: 'Continue' }).click();
      // The participant withdraws from their link page, after a confirmation.
      await phone.getByRole('button', { name: 'Withdraw from the study' }).click();
      const confirm = phone.getByRole('dialog', { name: 'Withdraw from the study?' });
      await confirm.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await expect(phone.getByText('You have withdrawn', { exact: true })).toBeVisible();
      await phone.close();

      // The owner's trail shows each step: both versions, both signatures, the withdrawal.
      await page.goto(`/researcher/study/${studyId}`);
      await page.getByRole('link', { name: AUDIT_TEXTS.studyTab }).click();
      const trail = page.getByRole('table');
      await expect(trail.getByText('Participant withdrew from the study')).toBeVisible();
      await expect(trail.getByText('Participant signed the consent form')).toHaveCount(2);
      await expect(trail.getByText('Published a consent form version')).toHaveCount(2);
    });
  });
