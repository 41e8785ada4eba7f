import { expect, test } from '@playwright/test';
import { expectAccessibleAtBothWidths } from './a11y';
import {
  APP_URL,
  approveApplication,
  consent,
  createMaster,
  fetchNew,
  loginToken,
  PASSWORD,
  registerAndApply,
  SANDBOX_URL,
  SLEEP_SCOPE,
  samplePdf,
  shot,
  uniqueEmail,
} from './helpers';

/**
 * Participant enrolment on a phone-sized page, against the real product and the
 * sandbox (mail, SMS and Google). A researcher (through the API) creates a study, invites one
 * person by e-mail and puts another on the roster with a phone number. The invited person opens
 * the link of the invitation in the sandbox inbox, enrols by the direct flow, reads the e-mail
 * code in the inbox, connects a simulated Google account, completes the profile with a PDF and
 * lands on 'Enrollment Complete'. The rostered person goes through the eight-step flow by SMS,
 * types a wrong code three times, asks for a new one and connects through the popup. An address
 * that is not on the roster is refused with the product's text, using the keyboard alone.
 */

const PHONE = { width: 390, height: 844 };
const masterEmail = uniqueEmail('enrol-master');
const masterPassword = `${PASSWORD}-master`;
const owner = { name: 'Rosalind Franklin', email: uniqueEmail('enrol-owner') };
const invitedEmail = uniqueEmail('invited');
const rosteredEmail = uniqueEmail('rostered');
const rosteredPhoneDigits = `555${String(Date.now()).slice(-7)}`;
const STUDY_NAME = 'Sleep Patterns in Shift Workers';

let token = '';
let studyId = '';
let studyCode = '';
let invitedParticipantId = '';

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetchNew(`${APP_URL}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

interface InboxMessage {
  id: string;
  to: string;
  subject?: string;
  text: string;
  channel?: string;
}

async function inbox(query: Record<string, string>): Promise<InboxMessage[]> {
  const response = await fetchNew(
    `${SANDBOX_URL}/inbox/messages.json?${new URLSearchParams(query)}`,
  );
  return ((await response.json()) as { messages: InboxMessage[] }).messages;
}

/** Waits for a message to `to` whose id is not in `seen`, and returns its 6-digit code. */
async function newCode(
  query: Record<string, string>,
  seen: Set<string>,
  match: (m: InboxMessage) => boolean = () => true,
): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const fresh = (await inbox(query)).find((m) => !seen.has(m.id) && match(m));
        if (fresh) {
          seen.add(fresh.id);
          code = /\b(\d{6})\b/.exec(fresh.text)?.[1] ?? '';
        }
        return code;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^\d{6}$/);
  return code;
}

async function knownIds(query: Record<string, string>): Promise<Set<string>> {
  return new Set((await inbox(query)).map((m) => m.id));
}

test.describe
  .serial('participant enrolment', () => {
    test.beforeAll(async () => {
      createMaster(masterEmail, masterPassword);
      const { applicationId } = await registerAndApply(owner.name, owner.email);
      await approveApplication(masterEmail, masterPassword, applicationId);
      token = await loginToken(owner.email);
      const { study } = await api<{ study: { id: string; studyCode: string } }>(
        '/api/auth/create-study',
        {
          method: 'POST',
          body: {
            name: STUDY_NAME,
            description: 'How night shifts change sleep and resting heart rate.',
            // Consent off: consent.spec.ts covers the consent step.
            settings: { consentRequired: false },
          },
        },
      );
      studyId = study.id;
      studyCode = study.studyCode;
      await api('/api/email/invitations', {
        method: 'POST',
        body: {
          studyCode,
          studyName: STUDY_NAME,
          participants: [{ email: invitedEmail }],
          emailSubject: `Invitation to participate in ${STUDY_NAME}`,
          emailBody: `Hello,\n\nYou are invited to join ${STUDY_NAME}.`,
        },
      });
      await api(`/api/studies/${studyId}/pending-participants`, {
        method: 'POST',
        body: {
          participants: [
            {
              email: rosteredEmail,
              phoneNumber: rosteredPhoneDigits,
              firstName: 'Chien-Shiung',
              lastName: 'Wu',
            },
          ],
        },
      });
    });

    test('an invited participant enrols from the invitation e-mail by the direct flow', async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(PHONE);
      // The invitation, as the participant sees it in the sandbox inbox.
      await page.goto(`${SANDBOX_URL}/inbox?to=${encodeURIComponent(invitedEmail)}`);
      const link = page.locator('pre.text a[href*="/participant/enroll"]').first();
      await expect(link).toBeVisible();
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).toContain(`/participant/enroll?code=${studyCode}`);
      await page.goto(href);

      await expect(page.getByRole('heading', { name: 'Join Research Study' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Enter Study Code' })).toBeVisible();
      await expect(page.getByText('Step 1 of 4')).toBeVisible();
      await expect(page.getByLabel('Study Code')).toHaveValue(studyCode);
      await shot(page, testInfo, 'enroll-1-study-code-390');
      await expectAccessibleAtBothWidths(page, 'enroll-1-study-code');
      await page.getByRole('button', { name: 'Verify Study Code' }).click();

      await expect(page.getByRole('heading', { name: 'Study Information' })).toBeVisible();
      await expect(page.getByText(STUDY_NAME)).toBeVisible();
      await expect(page.getByText(owner.name)).toBeVisible();
      await shot(page, testInfo, 'enroll-2-study-information-390');
      await expectAccessibleAtBothWidths(page, 'enroll-2-study-information');
      await page.getByRole('button', { name: 'Continue' }).click();

      await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
      const enrol = page.getByRole('button', { name: 'Enroll and Connect Fitbit' });
      await enrol.click();
      await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields');
      await page.getByLabel('First Name').fill('Ada');
      await page.getByLabel('Last Name').fill('Lovelace');
      await page.getByLabel('Email Address').fill(`  ${invitedEmail.toUpperCase()} `);
      const underAge = new Date();
      underAge.setFullYear(underAge.getFullYear() - 17);
      await page.getByLabel('Date of Birth').fill(underAge.toISOString().slice(0, 10));
      await enrol.click();
      await expect(page.getByRole('alert')).toHaveText(
        'You must be at least 18 years old to participate',
      );
      await page.getByLabel('Date of Birth').fill('1990-05-17');
      const seen = await knownIds({ to: invitedEmail });
      await enrol.click();

      // The study requires verification (the default): the e-mail code comes first.
      await expect(
        page.getByRole('status').filter({ hasText: 'Verification code sent to your email!' }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
      await shot(page, testInfo, 'enroll-3-email-code-390');
      await expectAccessibleAtBothWidths(page, 'enroll-3-email-code');
      const code = await newCode({ to: invitedEmail }, seen, (m) =>
        (m.subject ?? '').startsWith('Your verification code'),
      );
      // A reload while the code is on its way keeps the step and what was typed.
      await page.reload();
      await expect(page.getByText('Step 3 of 4')).toBeVisible();
      await expect(page.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
      await page.getByLabel('Verification Code').fill(code);
      await page.getByRole('button', { name: 'Verify Code' }).click();

      // Redirecting, then Google's consent page in the same tab.
      await consent(page, 'alex.rivera@gmail.test');
      await expect(page.getByText('Fitbit Connected Successfully!')).toBeVisible();
      await expect(page).toHaveURL(/\/participant\/info$/, { timeout: 10_000 });

      await expect(page.getByRole('heading', { name: 'Complete Your Profile' })).toBeVisible();
      await expect(page.getByLabel('Email Address')).toHaveValue(invitedEmail);
      await expect(page.getByLabel('Email Address')).toHaveAttribute('readonly', '');
      await expect(page.getByLabel('First Name')).toHaveValue('Ada');
      await page
        .getByLabel('Additional Information (optional)')
        .fill('I work night shifts three times a week.');
      const pdf = samplePdf('Shift schedule');
      await page.getByTestId('participant-documents-input').setInputFiles({
        name: 'shift-schedule.pdf',
        mimeType: 'application/pdf',
        buffer: pdf,
      });
      const documents = page.getByRole('list', { name: 'Documents (optional)' });
      await expect(documents.getByText('shift-schedule.pdf')).toBeVisible();
      await expect(documents.getByText(`${pdf.length} Bytes`)).toBeVisible();
      await shot(page, testInfo, 'enroll-4-profile-390');
      await expectAccessibleAtBothWidths(page, 'enroll-4-profile');
      await page.getByRole('button', { name: 'Complete Profile' }).click();
      await expect(page.getByText('Profile Complete!')).toBeVisible();
      await expect(page).toHaveURL(/\/participant\/success$/, { timeout: 10_000 });
      await expect(page.getByRole('heading', { name: 'Enrollment Complete' })).toBeVisible();
      const participantId = (await page.getByTestId('participant-id').textContent()) ?? '';
      expect(participantId).toMatch(/^P[0-9a-f]{16}$/);
      invitedParticipantId = participantId;
      await shot(page, testInfo, 'enroll-5-complete-390');
      await expectAccessibleAtBothWidths(page, 'enroll-5-complete');

      // The researcher sees the participant, connected, with the document.
      const info = await api<{
        participant: {
          email: string;
          documents: { name: string }[];
          informationCompleted: boolean;
        };
      }>(`/api/participants/${participantId}/info`);
      expect(info.participant.email).toBe(invitedEmail);
      expect(info.participant.informationCompleted).toBe(true);
      expect(info.participant.documents.map((d) => d.name)).toEqual(['shift-schedule.pdf']);
      const { participants } = await api<{
        participants: {
          participantEmail: string;
          authorizationStatus: boolean;
          hasAccessToken: boolean;
        }[];
      }>(`/api/studies/${studyId}/participants`);
      expect(participants.find((p) => p.participantEmail === invitedEmail)).toMatchObject({
        authorizationStatus: true,
        hasAccessToken: true,
      });
      const pending = await api<{ pendingParticipants?: { email: string }[] }>(
        `/api/studies/${studyId}/pending-participants`,
      );
      expect(JSON.stringify(pending)).not.toContain(invitedEmail);

      await page.getByRole('link', { name: 'Return to Home' }).click();
      await expect(page).toHaveURL(new RegExp(`^${APP_URL}/$`));
    });

    test('a rostered participant goes through the eight steps by SMS and connects in the popup', async ({
      page,
    }, testInfo) => {
      test.setTimeout(120_000);
      await page.setViewportSize(PHONE);
      await page.goto('/participant/flow');
      await expect(page.getByText('Step 1 of 8')).toBeVisible();
      await page.getByLabel('Study Code').fill(studyCode.toLowerCase());
      await expect(page.getByLabel('Study Code')).toHaveValue(studyCode);
      await page.getByRole('button', { name: 'Verify Study Code' }).click();
      await expect(page.getByRole('status')).toHaveText(
        'Study found! Please enter your contact information.',
      );
      await expect(page.getByRole('heading', { name: 'Enter Contact Info' })).toBeVisible();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert')).toHaveText('Please enter both email and phone number');
      await page.getByLabel('Email Address').fill(rosteredEmail);
      // A mistyped number: the text message is not offered, and the page says why.
      const mistyped = `${rosteredPhoneDigits.slice(0, 9)}${(Number(rosteredPhoneDigits[9]) + 1) % 10}`;
      await page.getByLabel('Phone Number').fill(mistyped);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(
        page.getByRole('radio', {
          name: 'Text message (the phone number you entered does not match our records)',
        }),
      ).toBeDisabled();
      await expect(
        page.getByText(
          'To get a text message, go Back and enter the phone number the research team has for you.',
        ),
      ).toBeVisible();
      await shot(page, testInfo, 'flow-3-phone-mismatch-390');
      await page.getByRole('button', { name: 'Back' }).click();
      await page
        .getByLabel('Phone Number')
        .fill(
          `(${rosteredPhoneDigits.slice(0, 3)}) ${rosteredPhoneDigits.slice(3, 6)}-${rosteredPhoneDigits.slice(6)}`,
        );
      await page.getByRole('button', { name: 'Continue' }).click();

      await expect(page.getByRole('heading', { name: 'Choose Verification Method' })).toBeVisible();
      await expect(page.getByRole('status')).toHaveText(
        'You are approved for this study! Please choose your verification method.',
      );
      await page.getByRole('radio', { name: /^Text message/ }).check();
      await shot(page, testInfo, 'flow-4-method-390');
      await expectAccessibleAtBothWidths(page, 'flow-4-method');
      const smsQuery = { channel: 'sms' };
      const seen = await knownIds(smsQuery);
      const forThisPhone = (m: InboxMessage) =>
        m.to.replace(/\D/g, '').endsWith(rosteredPhoneDigits);
      await page.getByRole('button', { name: 'Send Code' }).click();

      await expect(page.getByRole('heading', { name: 'Enter Verification Code' })).toBeVisible();
      await expect(
        page.getByRole('status').filter({ hasText: 'Verification code sent to your phone!' }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
      const first = await newCode(smsQuery, seen, forThisPhone);

      // Back and Send Code again: the code just sent stays enterable, with the wait shown.
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(page.getByText(/You can ask for a new code in \d+ seconds\./)).toBeVisible();
      await shot(page, testInfo, 'flow-4-code-still-valid-390');
      await page.getByRole('button', { name: 'Enter Code' }).click();
      await expect(page.getByRole('heading', { name: 'Enter Verification Code' })).toBeVisible();

      // A reload mid-enrolment resumes at the code entry.
      await page.reload();
      await expect(page.getByText('Step 5 of 8')).toBeVisible();
      await expect(page.getByLabel('Verification Code')).toBeVisible();
      await expect(page.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
      const wrong = first === '000000' ? '111111' : '000000';
      const codeInput = page.getByLabel('Verification Code');
      const verify = page.getByRole('button', { name: 'Verify Code' });
      await verify.click();
      await expect(page.getByRole('alert')).toHaveText('Please enter the verification code');
      await codeInput.fill('12a4');
      await expect(codeInput).toHaveValue('124');
      await verify.click();
      await expect(page.getByRole('alert')).toHaveText('Please enter a valid 6-digit code');
      for (const attempt of [1, 2]) {
        await codeInput.fill(wrong);
        await verify.click();
        await expect(page.getByText(`Attempts: ${attempt}/3`)).toBeVisible();
        await expect(page.getByRole('alert')).toHaveText('Invalid verification code');
      }
      await codeInput.fill(wrong);
      await verify.click();
      await expect(page.getByRole('alert')).toHaveText(
        'Too many failed attempts. Please request a new code.',
      );
      await expect(page.getByText('Attempts: 3/3')).toBeVisible();
      await expect(codeInput).toBeDisabled();
      await shot(page, testInfo, 'flow-5-too-many-attempts-390');
      await expectAccessibleAtBothWidths(page, 'flow-5-too-many-attempts');

      // A new code once the 30 seconds are over.
      const resend = page.getByRole('button', { name: 'Resend Code' });
      await expect(resend).toBeEnabled({ timeout: 35_000 });
      await resend.click();
      await expect(page.getByText('Attempts: 0/3')).toBeVisible();
      const second = await newCode(smsQuery, seen, forThisPhone);
      await codeInput.fill(second);
      await verify.click();

      await expect(page.getByRole('heading', { name: 'Fitbit Authorization' })).toBeVisible();
      await expect(page.getByRole('status').first()).toHaveText('Phone verification successful!');
      await shot(page, testInfo, 'flow-6-authorization-390');
      await expectAccessibleAtBothWidths(page, 'flow-6-authorization');
      const popupPromise = page.waitForEvent('popup');
      await page.getByRole('button', { name: 'Connect Fitbit' }).click();
      const popup = await popupPromise;
      // Sleep left out on Google's page: the popup stays open to say so, and this page does not
      // call it a success.
      await consent(popup, 'jordan.okafor@gmail.test', [SLEEP_SCOPE]);
      await expect(
        popup.getByRole('heading', { name: 'Fitbit Connected — Some Data Not Shared' }),
      ).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
      await expect(page.getByText('Fitbit Connected — Some Data Not Shared')).toBeVisible();
      await expect(page.getByText('Fitbit Connected Successfully!')).toHaveCount(0);
      const closed = popup.waitForEvent('close', { timeout: 15_000 });
      await popup.getByRole('button', { name: 'Close This Window' }).click();
      await closed;

      await expect(page.getByLabel('Email Address')).toHaveValue(rosteredEmail);
      await page.getByLabel('First Name').fill('Chien-Shiung');
      await page.getByLabel('Last Name').fill('Wu');
      await shot(page, testInfo, 'flow-7-profile-390');
      await expectAccessibleAtBothWidths(page, 'flow-7-profile');
      await page.getByRole('button', { name: 'Complete Profile' }).click();
      await expect(page.getByRole('heading', { name: 'Complete', exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Enrollment Complete' })).toBeVisible();
      const participantId = (await page.getByTestId('participant-id').textContent()) ?? '';
      expect(participantId).toMatch(/^P[0-9a-f]{16}$/);
      await shot(page, testInfo, 'flow-8-complete-390');
      await expectAccessibleAtBothWidths(page, 'flow-8-complete');

      const participants = await api<unknown>(`/api/studies/${studyId}/participants`);
      expect(JSON.stringify(participants)).toContain(rosteredEmail);
    });

    test('an address that is not on the roster is refused, with the keyboard alone', async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(PHONE);
      await page.goto('/participant/flow');
      // The study code field has the focus.
      await expect(page.getByLabel('Study Code')).toBeFocused();
      await page.keyboard.type(studyCode);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Enter Contact Info' })).toBeVisible();
      await expect(page.getByLabel('Email Address')).toBeFocused();
      await page.keyboard.type(uniqueEmail('stranger'));
      // Past the phone's country (United States unless chosen) to the number.
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('Country')).toBeFocused();
      await page.keyboard.press('Tab');
      await page.keyboard.type('5550001111');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert')).toHaveText(
        'You are not approved for this study. Please contact the researcher.',
      );
      await shot(page, testInfo, 'flow-refused-390');
      await expectAccessibleAtBothWidths(page, 'flow-refused');

      // The direct flow refuses the same address.
      await page.goto(`/participant/enroll?code=${studyCode}`);
      await page.getByRole('button', { name: 'Verify Study Code' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('First Name').fill('Sam');
      await page.getByLabel('Last Name').fill('Stranger');
      await page.getByLabel('Email Address').fill(uniqueEmail('stranger'));
      await page.getByLabel('Date of Birth').fill('1985-02-03');
      await page.getByRole('button', { name: 'Enroll and Connect Fitbit' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'You are not approved for this study. Please contact the researcher.',
      );

      // A code that names no study.
      await page.goto('/participant/enroll');
      await page.getByLabel('Study Code').fill('ZZ9');
      await page.getByRole('button', { name: 'Verify Study Code' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Study code must be 6-8 characters (letters and numbers only)',
      );
      await page.getByLabel('Study Code').fill('ZZZZ9999');
      await page.getByRole('button', { name: 'Verify Study Code' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Study not found. Please check the study code.',
      );
    });

    test('an enrolled participant checks their status, then verifies again and resumes the flow', async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(PHONE);
      await page.goto('/participant/verify');
      await page.getByLabel('Participant ID').fill(invitedParticipantId);
      await page.getByLabel('Email Address').fill(invitedEmail);
      await page.getByRole('button', { name: 'Check Status' }).click();
      const status = page.getByRole('region', { name: 'Your participation' });
      await expect(status.getByText(studyCode)).toBeVisible();
      // The id and e-mail prove nothing: enrolment and Fitbit status wait for a code.
      await expect(status.getByText('Connected', { exact: true })).toHaveCount(0);
      await expect(
        status.getByText(
          'To see your enrollment and Fitbit status, send yourself a verification email and enter its code.',
        ),
      ).toBeVisible();
      await shot(page, testInfo, 'verify-status-390');
      await expectAccessibleAtBothWidths(page, 'verify-status');

      const seen = await knownIds({ to: invitedEmail });
      await page.getByRole('button', { name: 'Send Verification Email' }).click();
      await expect(page).toHaveURL(/\/participant\/verify-email$/);
      await expect(page.getByLabel('Participant ID')).toHaveValue(invitedParticipantId);
      await expect(page.getByLabel('Study Code')).toHaveValue(studyCode);
      const code = await newCode({ to: invitedEmail }, seen);
      await page.getByRole('button', { name: 'Continue' }).click();
      // Whatever was verified before, this tab proves the e-mail again first.
      await expect(page.getByRole('heading', { name: 'Email Verification' })).toBeVisible();
      await page.getByLabel('Verification Code').fill(code);
      await page.getByRole('button', { name: 'Verify Code' }).click();
      await expect(page.getByRole('heading', { name: 'Phone Verification' })).toBeVisible();
      await shot(page, testInfo, 'verify-email-phone-390');
      await expectAccessibleAtBothWidths(page, 'verify-email-phone');
      await page.getByRole('button', { name: 'Skip' }).click();
      await expect(page.getByRole('heading', { name: 'Complete Enrollment' })).toBeVisible();
      // Back steps back one step (to the phone step), not to the start.
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(page.getByRole('heading', { name: 'Phone Verification' })).toBeVisible();
      await page.getByRole('button', { name: 'Skip' }).click();
      await expect(page.getByRole('heading', { name: 'Complete Enrollment' })).toBeVisible();
      await page.getByRole('button', { name: 'Continue Enrollment' }).click();

      // The code entered in this tab is the proof: the flow goes on where the participant stopped.
      await expect(page).toHaveURL(/\/participant\/flow$/);
      await expect(page.getByRole('heading', { name: 'Fitbit Authorization' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Connect Fitbit' })).toBeEnabled();
      await shot(page, testInfo, 'resumed-at-fitbit-390');
      await expectAccessibleAtBothWidths(page, 'resumed-at-fitbit');
    });

    test('someone enrolled who enrols again is told so and updates their details', async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(PHONE);
      await page.goto(`/participant/enroll?code=${studyCode}`);
      await page.getByRole('button', { name: 'Verify Study Code' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('First Name').fill('Chien-Shiung');
      await page.getByLabel('Last Name').fill('Wu Yuan');
      await page.getByLabel('Email Address').fill(rosteredEmail);
      await page.getByLabel('Date of Birth').fill('1982-05-31');
      const seen = await knownIds({ to: rosteredEmail });
      await page.getByRole('button', { name: 'Enroll and Connect Fitbit' }).click();
      const code = await newCode({ to: rosteredEmail }, seen);
      await page.getByLabel('Verification Code').fill(code);
      await page.getByRole('button', { name: 'Verify Code' }).click();

      const panel = page.getByRole('region', { name: 'You are already enrolled in this study' });
      await expect(panel).toBeVisible();
      await expect(page).toHaveURL(/\/participant\/enroll/);
      await expect(page.getByRole('button', { name: 'Reconnect Fitbit' })).toBeVisible();
      await shot(page, testInfo, 'enroll-already-enrolled-390');
      await page.getByRole('button', { name: 'Update My Details' }).click();
      await expect(page.getByRole('heading', { name: 'Complete Your Profile' })).toBeVisible();
      await expect(page.getByLabel('Last Name')).toHaveValue('Wu Yuan');
      await page.getByRole('button', { name: 'Complete Profile' }).click();
      await expect(page).toHaveURL(/\/participant\/success$/, { timeout: 10_000 });

      const { participants } = await api<{
        participants: { participantEmail: string; lastName: string | null }[];
      }>(`/api/studies/${studyId}/participants`);
      expect(participants.find((p) => p.participantEmail === rosteredEmail)?.lastName).toBe(
        'Wu Yuan',
      );
    });

    test('verify and verify-email pages at 1280 and 390 px', async ({ page }, testInfo) => {
      await page.goto('/participant/verify');
      await page.getByRole('button', { name: 'Send Verification Email' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Please enter both Participant ID and email address first',
      );
      await page.getByRole('button', { name: 'Check Status' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Please enter both Participant ID and email address',
      );
      await shot(page, testInfo, 'verify-1280');
      await page.setViewportSize(PHONE);
      await shot(page, testInfo, 'verify-390');
      await expectAccessibleAtBothWidths(page, 'verify');
      await page.goto('/participant/verify-email');
      await expect(page.getByRole('heading', { name: 'Enter Information' })).toBeVisible();
      await shot(page, testInfo, 'verify-email-390');
      await expectAccessibleAtBothWidths(page, 'verify-email');
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto('/participant/flow');
      await shot(page, testInfo, 'flow-1280');
      await expectAccessibleAtBothWidths(page, 'flow');
      // The profile page without an enrolment in this tab.
      await page.goto('/participant/info');
      await page.getByLabel('First Name').fill('Nobody');
      await page.getByLabel('Last Name').fill('Known');
      await page.getByRole('button', { name: 'Complete Profile' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Missing participant data. Please restart the enrollment process.',
      );
      await shot(page, testInfo, 'info-1280');
      await expectAccessibleAtBothWidths(page, 'info');
      await page.goto('/participant/success');
      await expect(page.getByRole('heading', { name: 'Enrollment Complete' })).toBeVisible();
      await shot(page, testInfo, 'success-1280');
      await expectAccessibleAtBothWidths(page, 'success');
    });
  });
