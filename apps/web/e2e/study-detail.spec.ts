import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { formatDateShort } from '@research/contracts';
import { expectAccessible } from './a11y';
import {
  APP_URL,
  addParticipant,
  apiJson,
  approvedResearcher,
  createMaster,
  expectFullyShown,
  expectNoSidewaysScroll,
  fetchNew,
  loginToken,
  PASSWORD,
  SANDBOX_URL,
  shot,
  signIn,
  signOut,
  uniqueEmail,
} from './helpers';

/**
 * The study screen against the real product (server, queue, sandbox SMTP): the owner invites one
 * participant by typing and one from a CSV file, edits the generated e-mail and sends it; both
 * mails reach the sandbox inbox with the study code and the enrolment link; both wait as
 * 'invited'; the history shows the mailing and its details; the owner edits a phone, removes one,
 * and invites a collaborator whose mail carries code and password; the collaborator joins, sees the
 * same tabs and cannot delete a participant.
 */

const masterEmail = uniqueEmail('detail-master');
const masterPassword = `${PASSWORD}-master`;
const master = { email: masterEmail, password: masterPassword };
const owner = { name: 'Rosalind Franklin', email: uniqueEmail('detail-owner') };
const collaborator = { name: 'Dorothy Hodgkin', email: uniqueEmail('detail-collab') };
const typedInvitee = uniqueEmail('typed-invitee');
/** The address in fixtures/roster-one-invitee.csv (BOM, CRLF, ';', quoted, mixed case). */
const csvInvitee = 'csv.invitee@example.test';
const rosterFile = fileURLToPath(new URL('./fixtures/roster-one-invitee.csv', import.meta.url));
const enrolled = {
  first: 'Ada',
  last: 'Byron',
  email: uniqueEmail('enrolled'),
  phone: '6505550123',
};
/** Added as pre-enrolled by the API, later invited from a CSV file. */
const lateComer = uniqueEmail('late-comer');

const STUDY_NAME = 'Heart Rate Variability in Shift Workers';
const STUDY_DURATION = '6 weeks';
const STUDY_PASSWORD = 'detail-pass-1';
let studyId = '';
let studyCode = '';
/** The dashboard join link from the collaborator's invitation mail (path and query). */
let joinLink = '';

/**
 * A screenshot as the user sees it: the whole page, or only the screen while a dialog is open (a
 * full-page capture would show the page running on below a full-screen dialog).
 */
async function capture(page: Page, testInfo: TestInfo, name: string) {
  if ((await page.getByRole('dialog').count()) === 0) return shot(page, testInfo, name);
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** The screen (or open dialog) at 1280 and 390 px: a screenshot and the axe check at each. */
async function bothWidths(page: Page, testInfo: TestInfo, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await capture(page, testInfo, `${name}-1280`);
  await expectAccessible(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the tab strip scrolls; the open tab is scrolled into view.
  if ((await page.getByRole('dialog').count()) === 0 && (await page.getByRole('tab').count()) > 0)
    await expect(page.getByRole('tab', { selected: true })).toBeInViewport({ ratio: 0.9 });
  await capture(page, testInfo, `${name}-390`);
  await expectAccessible(page, name);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Waits for the mail to this address with this subject (earlier mail may be there already). */
async function mailWithSubject(page: Page, to: string, subject: string) {
  let found: { subject: string; text: string } | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(
          `${SANDBOX_URL}/inbox/messages.json?to=${encodeURIComponent(to)}`,
        );
        const { messages } = (await response.json()) as {
          messages: { subject: string; text: string }[];
        };
        found = messages.find((message) => message.subject === subject);
        return Boolean(found);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found as { subject: string; text: string };
}

/** The notification modal with this title: checks the message and closes it with 'Got it'. */
async function expectNotification(page: Page, title: string, message: string | RegExp) {
  const modal = page
    .getByRole('dialog', { name: title })
    .or(page.getByRole('alertdialog', { name: title }));
  await expect(modal).toBeVisible();
  await expect(modal).toContainText(message);
  await modal.getByRole('button', { name: 'Got it' }).click();
  await expect(modal).toBeHidden();
}

async function openStudy(page: Page, tab?: number) {
  await page.goto(`/researcher/study/${studyId}${tab === undefined ? '' : `?tab=${tab}`}`);
  await expect(page.getByRole('heading', { level: 1, name: STUDY_NAME })).toBeVisible();
}

/** The owner signs in (landing on the dashboard) and opens the study. */
async function openStudyAsOwner(page: Page) {
  await signIn(page, owner.email);
  await expect(page).toHaveURL(/\/researcher\/dashboard$/);
  await openStudy(page);
}

/** The pending participants table's row of this address. */
function pendingRow(page: Page, email: string): Locator {
  return page
    .getByRole('table', { name: 'Pending participants' })
    .getByRole('row')
    .filter({ hasText: email });
}

function tab(page: Page, label: string): Locator {
  return page.getByRole('tab', { name: new RegExp(`^${label}`) });
}

test.describe
  .serial('study detail', () => {
    test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
    // Each test walks several screens and waits for mail through the queue: more than the default
    // 30 s on a busy machine.
    test.describe.configure({ timeout: 90_000 });

    test.beforeAll(async () => {
      createMaster(masterEmail, masterPassword);
      for (const person of [owner, collaborator]) {
        await approvedResearcher(master, person.name, person.email);
      }
      const token = await loginToken(owner.email);
      const created = await fetchNew(`${APP_URL}/api/auth/create-study`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          name: STUDY_NAME,
          duration: STUDY_DURATION,
          password: STUDY_PASSWORD,
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { study } = (await created.json()) as { study: { id: string; studyCode: string } };
      studyId = study.id;
      studyCode = study.studyCode;

      // One enrolled participant, added with the admin CLI as for a demo (enrolment itself is
      // covered by the enrolment specs).
      addParticipant(studyCode, {
        email: enrolled.email,
        firstName: enrolled.first,
        lastName: enrolled.last,
        phone: enrolled.phone,
      });
    });

    test('the owner sees the header, the tabs and the empty states', async ({ page }, testInfo) => {
      await openStudyAsOwner(page);
      await expect(page.getByText('No description provided')).toBeVisible();
      await expect(page.getByText(STUDY_DURATION)).toBeVisible();
      await expect(page.getByTestId('study-code')).toHaveText(studyCode);
      await page.getByRole('button', { name: 'Copy study code' }).click();
      const copied = page.getByText('Study code has been copied to clipboard');
      await expect(copied).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(studyCode);
      // The notice hides itself after a few seconds: gone before the screen is checked, or axe
      // may meet it half faded.
      await expect(copied).toBeHidden({ timeout: 15_000 });

      await expect(tab(page, 'Pending Participants')).toHaveText('Pending Participants (0)');
      await expect(tab(page, 'Study Members')).toHaveText('Study Members (1)');
      await expect(tab(page, 'Email History')).toHaveText('Email History (0)');
      await expect(tab(page, 'Participants')).toHaveText('Participants (1)');
      // The sixth tab counts the participants at risk: none, as nobody is connected yet.
      await expect(tab(page, 'Adherence')).toHaveText('Adherence (0)');
      const table = page.getByRole('table', { name: 'Participants' });
      // Not connected to a wearable yet: inactive.
      await expect(table.getByRole('row').filter({ hasText: 'Ada Byron' })).toContainText(
        'inactive',
      );
      await bothWidths(page, testInfo, '01-participants-tab');
      await table.getByRole('button', { name: 'View details of Ada Byron' }).click();
      const details = page.getByRole('dialog', { name: 'Participant Details' });
      await expect(details).toContainText(studyCode);
      await expect(details).toContainText('Ada');
      await bothWidths(page, testInfo, '01b-participant-details');
      await details.getByRole('button', { name: 'Close' }).click();

      await tab(page, 'Pending Participants').click();
      await expect(page).toHaveURL(/\?tab=1$/);
      await expect(page.getByText('No Pending Participants')).toBeVisible();
      await bothWidths(page, testInfo, '01c-pending-tab-empty');
      await tab(page, 'Email History').click();
      await expect(page.getByText('No Emails Sent Yet')).toBeVisible();
      await bothWidths(page, testInfo, '01d-email-history-empty');
      await tab(page, 'Data export').click();
      await expect(page.getByRole('button', { name: 'Go to Bucket' })).toBeVisible();
      await bothWidths(page, testInfo, '02-data-extraction-tab');
      // The tab survives a reload; a hidden tab resets to the first.
      await page.reload();
      await expect(tab(page, 'Data export')).toHaveAttribute('aria-selected', 'true');
      await page.goto(`/researcher/study/${studyId}?tab=9`);
      await expect(tab(page, 'Participants')).toHaveAttribute('aria-selected', 'true');
      await expect(page).not.toHaveURL(/tab=/);
    });

    test('the owner invites a typed and a CSV participant with an edited e-mail', async ({
      page,
    }, testInfo) => {
      await openStudyAsOwner(page);
      await page.getByRole('button', { name: 'Invite/Contact Participants' }).click();
      const compose = page.getByRole('dialog', { name: 'Invite/Contact Participants' });
      await expect(compose).toBeVisible();
      await expect(compose.getByRole('button', { name: 'Continue' })).toBeDisabled();

      await compose.getByLabel('Email 1').fill(typedInvitee);
      await compose.getByLabel('Phone (optional) 1').pressSequentially('5551234567');
      await expect(compose.getByLabel('Phone (optional) 1')).toHaveValue('(555) 123-4567');

      // A file that is not a CSV is refused in the browser, with the product's text.
      await compose.getByTestId('roster-file-input').setInputFiles({
        name: 'roster.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('hello'),
      });
      await expect(compose.getByText('File must be a CSV file')).toBeVisible();

      // The file a researcher exported from a spreadsheet: BOM, CRLF, ';', quoted, mixed case.
      await compose.getByTestId('roster-file-input').setInputFiles(rosterFile);
      const preview = compose.getByRole('table', { name: '1 participant from the file' });
      await expect(preview).toBeVisible();
      await expect(preview).toContainText(csvInvitee);
      await expect(compose.getByLabel('Email 2')).toHaveValue(csvInvitee);
      await expect(compose.getByLabel('Phone (optional) 2')).toHaveValue('(555) 987-6543');
      await bothWidths(page, testInfo, '03-invite-dialog');

      await compose.getByRole('button', { name: 'Continue' }).click();
      const review = page.getByRole('dialog', { name: 'Review & Edit Invitation Email' });
      await expect(review).toBeVisible();
      const subject = review.getByLabel(/^Subject/);
      await expect(subject).toHaveValue(`Invitation to participate in ${STUDY_NAME}`);
      const body = review.getByLabel(/^Message/);
      await expect(body).toHaveValue(/No description provided/);
      await expect(body).toHaveValue(new RegExp(`Duration: ${STUDY_DURATION}`));
      await expect(body).toHaveValue(new RegExp(`Study code: ${studyCode}`));
      await bothWidths(page, testInfo, '04-invitation-review');

      await review.getByRole('button', { name: 'Back to Edit' }).click();
      await expect(compose.getByLabel('Email 1')).toHaveValue(typedInvitee);
      await compose.getByRole('button', { name: 'Continue' }).click();
      await subject.fill(`You are invited: ${STUDY_NAME}`);
      await body.press('ControlOrMeta+End');
      await body.pressSequentially('\nP.S. Questions? Reply to this e-mail.');
      await review.getByRole('button', { name: 'Send Invitations' }).click();
      await expectNotification(
        page,
        'Invitations Sent',
        'Invitations were sent to 2 participants.',
      );
      await expect(review).toBeHidden();

      for (const address of [typedInvitee, csvInvitee]) {
        const mail = await mailWithSubject(page, address, `You are invited: ${STUDY_NAME}`);
        expect(mail.text).toContain(studyCode);
        expect(mail.text).toContain(`/participant/enroll?code=${studyCode}`);
        expect(mail.text).toContain('P.S. Questions? Reply to this e-mail.');
      }

      await tab(page, 'Pending Participants').click();
      await expect(tab(page, 'Pending Participants')).toHaveText('Pending Participants (2)');
      const pending = page.getByRole('table', { name: 'Pending participants' });
      for (const address of [typedInvitee, csvInvitee]) {
        const row = pending.getByRole('row').filter({ hasText: address });
        await expect(row).toContainText('invited');
      }
      await expect(pending.getByRole('row').filter({ hasText: typedInvitee })).toContainText(
        '(555) 123-4567',
      );
      await bothWidths(page, testInfo, '05-pending-tab');

      await tab(page, 'Email History').click();
      await expect(tab(page, 'Email History')).toHaveText('Email History (1)');
      await expect(page.getByText(/^Invited 2 participant\(s\) · /)).toBeVisible();
      await bothWidths(page, testInfo, '06-email-history-tab');
      await page.getByRole('button', { name: /^View/ }).click();
      const details = page.getByRole('dialog', { name: 'Email Details' });
      await expect(details).toContainText(`You are invited: ${STUDY_NAME}`);
      await expect(details).toContainText(typedInvitee);
      await expect(details).toContainText(csvInvitee);
      await expect(details).toContainText('P.S. Questions?');
      // Both mails are in the sandbox inbox (above), so the relay took them: the mailing shows
      // them sent. The status is written just after the relay answers, so an early read may
      // still say queued: read again (a reload) until it says sent.
      await expect(async () => {
        if (!(await details.getByText('sent: 2').isVisible())) {
          await page.reload();
          await page.getByRole('button', { name: /^View/ }).click();
        }
        await expect(details).toContainText('sent: 2', { timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      await expect(details).toContainText('queued: 0');
      await expect(details).toContainText('failed: 0');
      await bothWidths(page, testInfo, '07-email-details');
      await details.getByRole('button', { name: 'Close' }).click();
    });

    test('the owner edits a pending phone and removes a pending participant', async ({
      page,
    }, testInfo) => {
      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard$/);
      await openStudy(page, 1);
      const pending = page.getByRole('table', { name: 'Pending participants' });
      await pending.getByRole('button', { name: `Edit phone of ${typedInvitee}` }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Pending Participant' });
      const phone = edit.getByLabel(/^Phone Number/);
      await phone.fill('');
      await phone.pressSequentially('2223334444');
      await expect(phone).toHaveValue('(222) 333-4444');
      await bothWidths(page, testInfo, '08-edit-pending');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expectNotification(page, 'Participant Updated', 'updated');
      await expect(pending.getByRole('row').filter({ hasText: typedInvitee })).toContainText(
        '(222) 333-4444',
      );

      await pending.getByRole('button', { name: `Remove ${csvInvitee}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove Pending Participant' });
      await bothWidths(page, testInfo, '09-remove-pending');
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await expectNotification(page, 'Participant Removed', csvInvitee);
      await expect(pending.getByText(csvInvitee)).toHaveCount(0);
      await expect(tab(page, 'Pending Participants')).toHaveText('Pending Participants (1)');

      // Survives a reload: the server stored both changes.
      await page.reload();
      await expect(pending.getByText(typedInvitee)).toBeVisible();
      await expect(pending.getByText(csvInvitee)).toHaveCount(0);
    });

    test('on a phone every value of a row can be read and no page scrolls sideways', async ({
      page,
    }, testInfo) => {
      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard$/);
      await page.setViewportSize({ width: 390, height: 844 });
      const today = formatDateShort(new Date());
      /** A participant's row: a table row on a wide screen, a card on a phone. */
      const rowOf = (text: string) =>
        page.getByRole('row').or(page.getByRole('listitem')).filter({ hasText: text });

      await openStudy(page, 0);
      const participant = rowOf(enrolled.email);
      await expect(participant).toHaveCount(1);
      for (const value of ['inactive', today, '(650) 555-0123', enrolled.email]) {
        await expectFullyShown(participant.getByText(value, { exact: true }));
      }
      await expectFullyShown(participant.getByRole('button', { name: 'Delete Ada Byron' }));
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, '09b-participants-390');

      await openStudy(page, 1);
      const invitee = rowOf(typedInvitee);
      await expect(invitee).toHaveCount(1);
      for (const value of ['invited', today, '(222) 333-4444', typedInvitee]) {
        await expectFullyShown(invitee.getByText(value, { exact: true }));
      }
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, '09c-pending-390');

      for (const other of [2, 3]) {
        await openStudy(page, other);
        await expectNoSidewaysScroll(page);
      }

      await openStudy(page, 4);
      const connection = rowOf(enrolled.email);
      await expect(connection).toHaveCount(1);
      for (const value of ['Ada Byron', 'Not Authorized', enrolled.email]) {
        await expectFullyShown(connection.getByText(value, { exact: true }));
      }
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, '09d-data-extraction-390');
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    test('the owner invites a collaborator; the mail carries code and password', async ({
      page,
    }, testInfo) => {
      await openStudyAsOwner(page);
      await page.getByRole('button', { name: 'Invite/Contact Collaborator' }).click();
      const compose = page.getByRole('dialog', { name: 'Invite/Contact Collaborators' });
      await expect(compose.getByLabel('Subject')).toHaveValue(
        `Collaborator Invitation: ${STUDY_NAME}`,
      );
      await compose.getByLabel(/^Collaborator Emails/).fill(collaborator.email);
      await bothWidths(page, testInfo, '10-collaborator-dialog');
      await compose.getByRole('button', { name: 'Continue' }).click();
      const review = page.getByRole('dialog', {
        name: 'Review & Edit Collaborator Invitation Email',
      });
      await expect(review).toBeVisible();
      await expect(review).toContainText(`Study code: ${studyCode}`);
      await expect(review).toContainText('(added when the email is sent)');
      await bothWidths(page, testInfo, '11-collaborator-review');
      await review.getByRole('button', { name: 'Send Invitations' }).click();
      await expectNotification(
        page,
        'Invitations Sent',
        'Invitations were sent to 1 collaborator.',
      );

      const mail = await mailWithSubject(
        page,
        collaborator.email,
        `Collaborator Invitation: ${STUDY_NAME}`,
      );
      expect(mail.text).toContain(studyCode);
      expect(mail.text).toContain(STUDY_PASSWORD);
      expect(mail.text).toContain('/researcher/dashboard?code=');
      const link = /https?:\/\/[^\s]+\/researcher\/dashboard\?code=[^\s]+/.exec(mail.text)?.[0];
      expect(link).toBeTruthy();
      const url = new URL(link as string);
      expect(url.searchParams.get('code')).toBe(studyCode);
      expect(url.searchParams.get('password')).toBe(STUDY_PASSWORD);
      joinLink = `${url.pathname}${url.search}`;

      await tab(page, 'Email History').click();
      await expect(page.getByText(/^Contacted 1 collaborator\(s\) · /)).toBeVisible();
    });

    test('the collaborator joins, sees the same tabs and cannot delete a participant', async ({
      page,
    }, testInfo) => {
      expect(joinLink).not.toBe('');
      await signIn(page, collaborator.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard$/);
      // The link from the invitation mail opens the join dialog with code and password filled in.
      await page.goto(joinLink);
      const join = page.getByRole('dialog', { name: 'Join Study as Collaborator' });
      await expect(join.getByLabel('Study Code')).toHaveValue(studyCode);
      await expect(join.getByLabel('Study Password')).toHaveValue(STUDY_PASSWORD);
      await join.getByRole('button', { name: 'Join Study' }).click();
      await expectNotification(
        page,
        'Study Joined',
        'You have successfully joined the study as a collaborator',
      );
      await openStudy(page);
      for (const label of [
        'Participants',
        'Pending Participants',
        'Study Members',
        'Email History',
        'Data export',
      ]) {
        await expect(tab(page, label)).toBeVisible();
      }
      await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();
      const table = page.getByRole('table', { name: 'Participants' });
      const remove = table.getByRole('button', { name: /^Delete / }).first();
      await expect(remove).toBeDisabled();
      await remove.hover({ force: true });
      await expect(page.getByRole('tooltip')).toHaveText(
        'Only the study owner can delete participants',
      );
      await bothWidths(page, testInfo, '12-collaborator-participants');

      await tab(page, 'Study Members').click();
      await expect(tab(page, 'Study Members')).toHaveText('Study Members (2)');
      await expect(page.getByRole('table', { name: 'Main Researcher' })).toContainText(owner.name);
      const collaborators = page.getByRole('table', { name: 'Collaborative Researchers (1)' });
      await expect(collaborators).toContainText(collaborator.name);
      await expect(collaborators).toContainText('Collaborator');
      // Only the owner removes collaborators.
      await expect(collaborators.getByRole('button', { name: /^Remove / })).toHaveCount(0);
      await bothWidths(page, testInfo, '13-members-tab');
    });

    test('the owner contacts participants and the collaborator, edits the study and a participant', async ({
      page,
    }, testInfo) => {
      await openStudyAsOwner(page);

      // Contact participants: title and content first, then at least one recipient.
      await page.getByRole('button', { name: 'Invite/Contact Participants' }).click();
      const compose = page.getByRole('dialog', { name: 'Invite/Contact Participants' });
      await compose.getByRole('button', { name: 'Contact' }).click();
      await compose.getByRole('button', { name: 'Continue' }).click();
      await expect(compose.getByRole('alert')).toHaveText('Email title and content are required');
      await compose.getByLabel(/^Email Title/).fill('Please sync your device');
      await compose.getByLabel(/^Email Content/).fill('Open the app once a day so data arrives.');
      await compose.getByRole('button', { name: 'Continue' }).click();
      await expect(compose.getByRole('alert')).toHaveText('Please select at least one recipient');
      await compose.getByRole('checkbox', { name: /Ada Byron/ }).click();
      await bothWidths(page, testInfo, '14-contact-participants');
      await compose.getByRole('button', { name: 'Continue' }).click();
      const review = page.getByRole('dialog', { name: 'Review & Edit Contact Email' });
      await expect(review).toContainText('This e-mail goes to 1 recipient.');
      await bothWidths(page, testInfo, '15-contact-review');
      await review.getByRole('button', { name: 'Send Emails' }).click();
      await expectNotification(page, 'Emails Sent', 'Your e-mail was sent to 1 recipient.');
      const contactMail = await mailWithSubject(page, enrolled.email, 'Please sync your device');
      expect(contactMail.text).toContain('Open the app once a day so data arrives.');

      // Contact the collaborator: the same form over the study's members.
      await page.getByRole('button', { name: 'Invite/Contact Collaborator' }).click();
      const collab = page.getByRole('dialog', { name: 'Invite/Contact Collaborators' });
      await collab.getByRole('button', { name: 'Contact' }).click();
      await collab.getByLabel(/^Email Title/).fill('Analysis plan');
      await collab.getByLabel(/^Email Content/).fill('The draft is in the shared folder.');
      await collab.getByRole('checkbox', { name: new RegExp(collaborator.name) }).click();
      await bothWidths(page, testInfo, '16-contact-collaborators');
      await collab.getByRole('button', { name: 'Continue' }).click();
      const collabReview = page.getByRole('dialog', {
        name: 'Review & Edit Collaborator Contact Email',
      });
      await collabReview.getByRole('button', { name: 'Send Emails' }).click();
      await expectNotification(page, 'Emails Sent', 'Your e-mail was sent to 1 recipient.');
      // The collaborator already has mail (the invitation): wait for this one.
      await mailWithSubject(page, collaborator.email, 'Analysis plan');

      await tab(page, 'Email History').click();
      await expect(tab(page, 'Email History')).toHaveText('Email History (4)');
      await expect(page.getByText(/^Contacted 1 participant\(s\) · /)).toBeVisible();
      await expect(page.getByText(/^Contacted 1 collaborator\(s\) · /)).toHaveCount(2);

      // Edit Study: the name is required; description and duration are trimmed.
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Study' });
      await edit.getByLabel(/^Study Name/).fill('');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expect(edit.getByText('Study name is required')).toBeVisible();
      await edit.getByLabel(/^Study Name/).fill(STUDY_NAME);
      await edit
        .getByLabel(/^Description/)
        .fill('  Sleep and heart rate across rotating shifts.  ');
      await bothWidths(page, testInfo, '17-edit-study');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expectNotification(page, 'Study Updated', 'The study has been updated successfully.');
      await expect(page.getByText('Sleep and heart rate across rotating shifts.')).toBeVisible();

      // Edit Participant: both names are required.
      await tab(page, 'Participants').click();
      const table = page.getByRole('table', { name: 'Participants' });
      await table.getByRole('button', { name: 'Edit Ada Byron' }).click();
      const editParticipant = page.getByRole('dialog', { name: 'Edit Participant' });
      await editParticipant.getByLabel(/^Last Name/).fill(' ');
      await editParticipant.getByRole('button', { name: 'Save' }).click();
      await expect(
        editParticipant.getByText('First name and last name are required'),
      ).toBeVisible();
      await editParticipant.getByLabel(/^Last Name/).fill('Lovelace');
      await bothWidths(page, testInfo, '18-edit-participant');
      await editParticipant.getByRole('button', { name: 'Save' }).click();
      await expectNotification(page, 'Participant Updated', 'The participant has been updated.');
      await expect(table).toContainText('Ada Lovelace');

      // Refresh reloads every tab: a pending participant added meanwhile (here by the API, as a
      // colleague's upload would) shows up in the counts and the table.
      await apiJson(`/api/studies/${studyId}/pending-participants`, {
        method: 'POST',
        body: { participants: [{ email: lateComer }] },
        token: await loginToken(owner.email),
      });
      await expect(tab(page, 'Pending Participants')).toHaveText('Pending Participants (1)');
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(tab(page, 'Pending Participants')).toHaveText('Pending Participants (2)');
      await expect(table).toContainText('Ada Lovelace');
      await tab(page, 'Pending Participants').click();
      await expect(pendingRow(page, lateComer)).toContainText('pre-enrolled');
    });

    test('the owner invites a pending person from a CSV; a participant in it is left out', async ({
      page,
    }, testInfo) => {
      await openStudyAsOwner(page);
      await page.getByRole('button', { name: 'Invite/Contact Participants' }).click();
      const compose = page.getByRole('dialog', { name: 'Invite/Contact Participants' });
      await compose.getByTestId('roster-file-input').setInputFiles({
        name: 'again.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`email\n${lateComer}\n${enrolled.email}\n`),
      });
      // Already pending ('pre-enrolled'): invitable again. Already a participant: left out, said so.
      const preview = compose.getByRole('table', { name: '1 participant from the file' });
      await expect(preview).toContainText(lateComer);
      await expect(compose.getByLabel('Email 1')).toHaveValue(lateComer);
      await expect(compose).toContainText(
        `${enrolled.email} is already a participant of this study`,
      );
      await bothWidths(page, testInfo, '18b-invite-pending-from-csv');
      await compose.getByRole('button', { name: 'Continue' }).click();
      const review = page.getByRole('dialog', { name: 'Review & Edit Invitation Email' });
      await review.getByRole('button', { name: 'Send Invitations' }).click();
      await expectNotification(page, 'Invitations Sent', 'Invitations were sent to 1 participant.');
      await mailWithSubject(page, lateComer, `Invitation to participate in ${STUDY_NAME}`);

      await tab(page, 'Pending Participants').click();
      await expect(tab(page, 'Pending Participants')).toHaveText('Pending Participants (2)');
      await expect(pendingRow(page, lateComer)).toContainText('invited');
    });

    test('the owner deletes a participant and removes the collaborator, who loses access', async ({
      page,
    }, testInfo) => {
      await openStudyAsOwner(page);
      const table = page.getByRole('table', { name: 'Participants' });
      await table.getByRole('button', { name: 'Delete Ada Lovelace' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete Participant' });
      await bothWidths(page, testInfo, '19-delete-participant');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expectNotification(
        page,
        'Participant Deleted',
        'Ada Lovelace has been deleted from the study.',
      );
      await expect(tab(page, 'Participants')).toHaveText('Participants (0)');
      await expect(page.getByText('No Participants Yet')).toBeVisible();

      await tab(page, 'Study Members').click();
      const collaborators = page.getByRole('table', { name: 'Collaborative Researchers (1)' });
      await collaborators.getByRole('button', { name: `Remove ${collaborator.name}` }).click();
      const remove = page.getByRole('dialog', { name: 'Remove Collaborator' });
      await bothWidths(page, testInfo, '20-remove-collaborator');
      await remove.getByRole('button', { name: 'Remove' }).click();
      await expectNotification(
        page,
        'Collaborator Removed',
        `${collaborator.name} no longer has access to this study.`,
      );
      await expect(tab(page, 'Study Members')).toHaveText('Study Members (1)');

      await signOut(page);
      await signIn(page, collaborator.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard$/);
      await page.goto(`/researcher/study/${studyId}`);
      await expect(page.getByRole('heading', { name: 'Study not found' })).toBeVisible();
      await bothWidths(page, testInfo, '21-study-not-found');
    });
  });
