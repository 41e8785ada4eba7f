import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { build } from 'vite';
import { expectAccessibleAtBothWidths } from './a11y';
import {
  APP_URL,
  addParticipant,
  approveApplication,
  connectOverHttp,
  consent,
  createMaster,
  fetchNew,
  latestMail,
  loginToken,
  PASSWORD,
  registerAndApply,
  SANDBOX_URL,
  SLEEP_SCOPE,
  shot,
  shotsAtBothWidths,
  signIn,
  uniqueEmail,
} from './helpers';

/**
 * Wearable authorization against the real product and the sandbox's Google: a connected
 * participant (made by the admin CLI, connected once through a consent link the researcher
 * asked for) reconnects at /fitbit/reauthorize; another Google account is refused, theirs works,
 * sleep unticked stays off; the study's listing shows the connection with its scopes. A
 * participant who was never connected cannot start from that page. The popup helper is driven
 * from a test page with the participant session of a verified e-mail, to success and to
 * 'Authorization cancelled by user'. After the sandbox revokes the grant, the researcher's
 * refresh marks the connection, the participant gets the reauthorization mail, follows it,
 * reconnects, and the listing shows the connection active again.
 */

const masterEmail = uniqueEmail('wear-master');
const masterPassword = `${PASSWORD}-master`;
const owner = { name: 'Grace Hopper', email: uniqueEmail('wear-owner') };
const participantEmail = uniqueEmail('wear-participant');
const popupParticipantEmail = uniqueEmail('wear-popup');
const ACCOUNT = 'priya.patel@gmail.test';
const POPUP_ACCOUNT = 'jordan.okafor@gmail.test';

let studyId = '';

let studyCode = '';
let participantId = '';
let popupParticipantId = '';

/** The study owner's bearer token. */
const ownerToken = () => loginToken(owner.email);

/** A first connection over HTTP, as the owner asks for it, with this Google account. */
async function connectOnce(id: string, account: string) {
  await connectOverHttp({
    participantId: id,
    studyCode,
    token: await ownerToken(),
    choice: { account },
  });
}

/**
 * The participant session a verified e-mail gives (what the enrolment pages hold): the e-mail
 * code read in the sandbox inbox, then verified.
 */
async function verifiedSession(id: string, email: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetchNew(`${APP_URL}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  await post('/api/verification/send-email-code', { participantId: id, email, studyCode });
  let code = '';
  await expect
    .poll(
      async () => {
        const inbox = (await (
          await fetchNew(`${SANDBOX_URL}/inbox/messages.json?to=${encodeURIComponent(email)}`)
        ).json()) as { messages: { text: string }[] };
        code = inbox.messages.map((m) => /\b(\d{6})\b/.exec(m.text)?.[1]).find(Boolean) ?? '';
        return code;
      },
      { timeout: 15_000 },
    )
    .not.toBe('');
  const verified = (await post('/api/verification/verify-email-code', {
    participantId: id,
    email,
    studyCode,
    verificationCode: code,
  })) as { session: { sessionId: string } };
  return verified.session.sessionId;
}

/** On the sandbox's Google page: untick the given scopes, then pick the account. */

async function expectConnected(page: Page) {
  await expect(page.getByText('Fitbit Connected Successfully!')).toBeVisible();
  await expect(
    page.getByText(
      'Your Fitbit device has been successfully connected to the study. You can now participate in health data collection.',
    ),
  ).toBeVisible();
  // The participant's own tab: nothing closes, the page moves on.
  await expect(
    page.getByText('Authorization complete. You will be taken to the next step in a moment.'),
  ).toBeVisible();
}

/** The callback after a grant without sleep: it says so and offers Google's page again. */
async function expectSleepNotShared(page: Page) {
  await expect(
    page.getByRole('heading', { name: 'Fitbit Connected — Some Data Not Shared' }),
  ).toBeVisible();
  await expect(
    page.getByText('You shared: Activity, Heart & body, Profile, Settings.'),
  ).toBeVisible();
  await expect(
    page.getByText(
      'Not shared: Sleep. The study cannot use this kind of data unless you share it.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Share the Missing Data' })).toBeVisible();
}

async function openListing(page: Page) {
  await page.goto(`/researcher/study/${studyId}?tab=4`);
  const listing = page.getByRole('region', { name: 'Wearable Authorizations' });
  await expect(listing).toBeVisible();
  return listing;
}

test.describe
  .serial('wearables', () => {
    test.beforeAll(async () => {
      createMaster(masterEmail, masterPassword);
      const { applicationId } = await registerAndApply(owner.name, owner.email);
      await approveApplication(masterEmail, masterPassword, applicationId);
      const token = await ownerToken();
      const created = await fetchNew(`${APP_URL}/api/auth/create-study`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          name: 'Sleep and Activity in Nurses',
          settings: { consentRequired: false },
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { study } = (await created.json()) as { study: { id: string; studyCode: string } };
      studyId = study.id;
      studyCode = study.studyCode;
      participantId = addParticipant(studyCode, {
        email: participantEmail,
        firstName: 'Florence',
        lastName: 'Nightingale',
      });
      popupParticipantId = addParticipant(studyCode, {
        email: popupParticipantEmail,
        firstName: 'Mary',
        lastName: 'Seacole',
      });
      // Reauthorization renews an existing connection: Florence connected once, every scope.
      await connectOnce(participantId, ACCOUNT);
    });

    test('a participant reconnects at /fitbit/reauthorize without sleep; the listing shows the scopes', async ({
      page,
    }, testInfo) => {
      // Three trips through Google's consent and a researcher's sign-in.
      test.setTimeout(90_000);
      await page.goto('/fitbit/reauthorize');
      await expect(
        page.getByRole('heading', { name: 'Why is reauthorization needed?' }),
      ).toBeVisible();
      await expect(page.getByRole('link', { name: 'Check Participation Status' })).toHaveAttribute(
        'href',
        '/participant/verify',
      );
      const reconnect = page.getByRole('button', { name: 'Reconnect Fitbit Device' });
      await expect(reconnect).toBeDisabled();
      await page.getByLabel('Participant ID').fill(participantId);
      await page.getByLabel('Email Address').fill('someone.else@example.test');
      await reconnect.click();
      await expect(page.getByRole('alert')).toHaveText(
        'Participant verification failed. Please check your information.',
      );
      await page.getByLabel('Email Address').fill(`  ${participantEmail.toUpperCase()} `);
      await shotsAtBothWidths(page, testInfo, 'reauthorize-form');
      await expectAccessibleAtBothWidths(page, 'reauthorize-form');
      await reconnect.click();

      // Cancel on Google's page: the callback shows the failure texts and forgets the flow.
      await expect(page).toHaveURL(new RegExp(`^${SANDBOX_URL}/o/oauth2/v2/auth`));
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(/\/fitbit\/callback\?/);
      await expect(page.getByRole('heading', { name: 'Authorization Failed' })).toBeVisible();
      await expect(
        page.getByText('There was an issue connecting your Fitbit device.'),
      ).toBeVisible();
      // What Cancel means, in words; Google's code is not shown.
      await expect(
        page.getByText(
          'You chose Cancel on Google’s page, so nothing was shared and nothing was changed. Choose Try Again to go back to Google’s page.',
        ),
      ).toBeVisible();
      await expect(page.getByText(/access_denied/)).toHaveCount(0);
      expect(
        await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('fitbit_'))),
      ).toEqual([]);
      expect(await page.evaluate(() => Object.keys(sessionStorage))).not.toContain(
        'participant_enrolment',
      );
      await shotsAtBothWidths(page, testInfo, 'callback-failure');
      await expectAccessibleAtBothWidths(page, 'callback-failure');
      // Try Again goes straight back to Google's page: nothing to fill in again.
      await page.getByRole('button', { name: 'Try Again' }).click();
      await expect(page).toHaveURL(new RegExp(`^${SANDBOX_URL}/o/oauth2/v2/auth`));

      // Another Google account than the connected one: refused, nothing changed.
      await consent(page, POPUP_ACCOUNT);
      await expect(page).toHaveURL(/\/fitbit\/callback\?/);
      await expect(page.getByRole('heading', { name: 'Authorization Failed' })).toBeVisible();
      await expect(
        page.getByText(
          'This is not the Google account connected to your participation, so nothing was changed. Please sign in with the Google account your Fitbit device uses. If you have not connected a Fitbit device yet, start from your study invitation and verify your email first.',
        ),
      ).toBeVisible();
      await shotsAtBothWidths(page, testInfo, 'callback-other-account');
      await expectAccessibleAtBothWidths(page, 'callback-other-account');
      await page.getByRole('button', { name: 'Try Again' }).click();
      await expect(page).toHaveURL(new RegExp(`^${SANDBOX_URL}/o/oauth2/v2/auth`));
      await shotsAtBothWidths(page, testInfo, 'google-consent');
      // Sleep was granted before; unticked now, it stays off (no incremental authorization).
      await consent(page, ACCOUNT, [SLEEP_SCOPE]);

      await expect(page).toHaveURL(/\/fitbit\/callback\?/);
      await expectSleepNotShared(page);
      await shotsAtBothWidths(page, testInfo, 'callback-partial');
      await expectAccessibleAtBothWidths(page, 'callback-partial');
      // The stored verifier, study code and participant data are gone.
      expect(
        await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('fitbit_'))),
      ).toEqual([]);
      // A partial grant waits for the person: past the 3 s a full one waits, it is still here.
      await page.waitForTimeout(3_500);
      await expect(page).toHaveURL(/\/fitbit\/callback\?/);
      await page.getByRole('button', { name: 'Continue Without It' }).click();
      await expect(page).not.toHaveURL(/\/fitbit\/callback/);

      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      const listing = await openListing(page);
      const row = listing.locator(`tr[data-participant-id="${participantId}"]`);
      await expect(row).toContainText('Florence Nightingale');
      await expect(row).toContainText('Authorized');
      await expect(row).toContainText('Yes');
      await expect(row).toContainText('Activity');
      await expect(row).toContainText('Heart & body');
      // Sleep is not among the granted scopes but named as not shared.
      await expect(row).toContainText(/Not shared:\s*Sleep/);
      await expect(listing).toContainText('Fitbit data now comes through the Google Health API');
      await shotsAtBothWidths(page, testInfo, 'authorization-listing');
      await expectAccessibleAtBothWidths(page, 'authorization-listing');
    });

    test('a participant who was never connected cannot start at /fitbit/reauthorize', async ({
      page,
    }) => {
      const email = uniqueEmail('wear-never');
      const neverId = addParticipant(studyCode, {
        email: email,
        firstName: 'Nobody',
        lastName: 'Connected',
      });
      await page.goto('/fitbit/reauthorize');
      await page.getByLabel('Participant ID').fill(neverId);
      await page.getByLabel('Email Address').fill(email);
      await page.getByRole('button', { name: 'Reconnect Fitbit Device' }).click();
      // The page cannot tell (nor can anyone who knows the id): Google's page, then the answer
      // for an account that is not the connected one, which says where a first connection starts.
      await consent(page, POPUP_ACCOUNT);
      await expect(page).toHaveURL(/\/fitbit\/callback\?/);
      await expect(page.getByRole('heading', { name: 'Authorization Failed' })).toBeVisible();
      await expect(
        page.getByText(
          'If you have not connected a Fitbit device yet, start from your study invitation and verify your email first.',
          { exact: false },
        ),
      ).toBeVisible();
    });

    test('the popup helper resolves on success and rejects when the person closes it', async ({
      page,
      context,
    }) => {
      // The app's real popup and flow modules, bundled by the app's own build tool.
      const built = await build({
        configFile: false,
        logLevel: 'silent',
        build: {
          write: false,
          minify: false,
          lib: {
            entry: fileURLToPath(new URL('./fixtures/popup-harness.ts', import.meta.url)),
            formats: ['es'],
            fileName: 'popup-harness',
          },
        },
      });
      const output = (Array.isArray(built) ? built[0] : built) as {
        output: { type: string; code?: string }[];
      };
      const script = output.output.find((chunk) => chunk.type === 'chunk')?.code ?? '';
      // A first connection: the page holds the session of Mary's verified e-mail.
      const session = await verifiedSession(popupParticipantId, popupParticipantEmail);
      const harnessUrl = `${APP_URL}/e2e-popup-harness`;
      await page.route(harnessUrl, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html><body>
<form id="harness">
  <input name="participantId" value="${popupParticipantId}">
  <input name="email" value="${popupParticipantEmail}">
  <input name="studyCode" value="${studyCode}">
  <input name="session" value="${session}">
  <button type="submit">Connect</button>
</form>
<output id="result">idle</output>
<script type="module">${script}</script>
</body></html>`,
        }),
      );
      // The popup closes 500 ms after success, sooner than a loaded machine may look at it: the
      // callback page itself hands every heading it shows to the harness page.
      await context.addInitScript(() => {
        if (window.location.pathname !== '/fitbit/callback' || !window.opener) return;
        const opener = window.opener as { popupSaw?: string[] };
        new MutationObserver(() => {
          for (const heading of document.querySelectorAll('h1')) {
            const text = heading.textContent ?? '';
            opener.popupSaw = [...(opener.popupSaw ?? []), text];
          }
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      await page.goto(harnessUrl);
      const result = page.locator('#result');

      // Cancelled: the person closes the popup on Google's page.
      const [cancelled] = await Promise.all([
        context.waitForEvent('page'),
        page.getByRole('button', { name: 'Connect' }).click(),
      ]);
      await expect(cancelled).toHaveURL(new RegExp(`^${SANDBOX_URL}/o/oauth2/v2/auth`));
      // window.open's width and height are the content area's.
      const size = await cancelled.evaluate(() => [window.innerWidth, window.innerHeight]);
      expect(size).toEqual([600, 700]);
      await cancelled.close();
      await expect(result).toHaveText('error Authorization cancelled by user', { timeout: 5_000 });

      // Success: the callback runs in the popup, posts to this page and the popup closes.
      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        page.getByRole('button', { name: 'Connect' }).click(),
      ]);
      await consent(popup, POPUP_ACCOUNT);
      await expect(result).toHaveText(new RegExp(`^success ${popupParticipantId} `));
      // The popup showed the success texts before it closed (recorded by the init script).
      await expect
        .poll(() => page.evaluate(() => (window as { popupSaw?: string[] }).popupSaw ?? []))
        .toContain('Fitbit Connected Successfully!');
      await expect(result).toContainText(SLEEP_SCOPE);
      await expect.poll(() => popup.isClosed()).toBe(true);
    });

    test('direct path: without a stored verifier the callback page completes through the callback call', async ({
      page,
    }, testInfo) => {
      // A consent link made on the server (as enrolment's enroll-direct will): no browser verifier.
      const directId = addParticipant(studyCode, {
        email: uniqueEmail('wear-direct'),
        firstName: 'Ada',
        lastName: 'Lovelace',
      });
      const token = await ownerToken();
      const answer = await fetchNew(
        `${APP_URL}/api/fitbit/auth-url?${new URLSearchParams({ participantId: directId, studyCode })}`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      expect(answer.status).toBe(200);
      const { authUrl } = (await answer.json()) as { authUrl: string };
      const callbackCalls: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/')) callbackCalls.push(new URL(request.url()).pathname);
      });
      await page.goto(authUrl);
      await consent(page, 'sam.chen@gmail.test');
      await expect(page).toHaveURL(/\/fitbit\/callback\?/);
      await expectConnected(page);
      await shot(page, testInfo, 'direct-callback-success');
      await expectAccessibleAtBothWidths(page, 'direct-callback-success');
      expect(callbackCalls).toContain('/api/fitbit/callback');
      expect(callbackCalls).not.toContain('/api/data/exchange-fitbit-token');
      // 3 seconds later the person continues with the profile, with the session the call answered.
      await expect(page).toHaveURL(/\/participant\/info$/, { timeout: 6_000 });
      await expect(page.getByRole('heading', { name: 'Complete Your Profile' })).toBeVisible();

      const status = await fetchNew(`${APP_URL}/api/fitbit/status/${directId}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const { data } = (await status.json()) as { data: { status: string; hasTokens: boolean } };
      expect(data).toMatchObject({ status: 'active', hasTokens: true });
    });

    test('Cancel on Google’s page from an enrolment’s consent link: Try Again goes back to Google with the tab’s session', async ({
      page,
    }, testInfo) => {
      const email = uniqueEmail('wear-retry');
      const retryId = addParticipant(studyCode, {
        email,
        firstName: 'Rosalind',
        lastName: 'Franklin',
      });
      // What the enrolment holds when it sends the person to Google: a verified session in the
      // tab and a consent link made on the server (no flow stored in the browser).
      const session = await verifiedSession(retryId, email);
      const answer = await fetchNew(
        `${APP_URL}/api/fitbit/auth-url?${new URLSearchParams({ participantId: retryId, studyCode })}`,
        { headers: { Authorization: `Bearer ${await ownerToken()}` } },
      );
      expect(answer.status).toBe(200);
      const { authUrl } = (await answer.json()) as { authUrl: string };
      await page.goto('/');
      await page.evaluate(
        ([participantId, code, address, sessionId]) =>
          sessionStorage.setItem(
            'participant_enrolment',
            JSON.stringify({ participantId, studyCode: code, email: address, sessionId }),
          ),
        [retryId, studyCode, email, session] as const,
      );
      await page.goto(authUrl);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(/\/fitbit\/callback\?/);
      await expect(
        page.getByText(
          'You chose Cancel on Google’s page, so nothing was shared and nothing was changed. Choose Try Again to go back to Google’s page.',
        ),
      ).toBeVisible();
      // The tab keeps nothing about the person; Try Again still knows who they are.
      expect(await page.evaluate(() => sessionStorage.getItem('participant_enrolment'))).toBeNull();
      await shot(page, testInfo, 'enrolment-cancel');
      await page.getByRole('button', { name: 'Try Again' }).click();
      await consent(page, 'alex.rivera@gmail.test');
      await expect(page).toHaveURL(/\/fitbit\/callback\?/);
      await expectConnected(page);
      await expect(page).toHaveURL(/\/participant\/info$/, { timeout: 6_000 });
      await expect(page.getByRole('heading', { name: 'Complete Your Profile' })).toBeVisible();
    });

    test('after Google revokes the grant, refresh asks for reauthorization by mail and the participant reconnects', async ({
      page,
    }, testInfo) => {
      const revoked = await fetchNew(`${SANDBOX_URL}/__admin/health/revoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: ACCOUNT }),
      });
      expect(revoked.ok).toBe(true);

      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      let listing = await openListing(page);
      await listing.getByRole('button', { name: `Refresh token ${participantId}` }).click();
      const modal = page.getByRole('alertdialog', { name: 'Failed to Refresh Token' });
      await expect(modal).toContainText('The participant must reconnect their wearable account');
      await shotsAtBothWidths(page, testInfo, 'refresh-needs-reauthorization');
      await expectAccessibleAtBothWidths(page, 'refresh-needs-reauthorization');
      await modal.getByRole('button', { name: 'Got it' }).click();
      const row = listing.locator(`tr[data-participant-id="${participantId}"]`);
      await expect(row).toContainText('Needs Reauthorization');
      await expect(row).toContainText('No');

      const mail = await latestMail(page, participantEmail);
      expect(mail.subject).toBe('Please reconnect your Fitbit device');
      const link = /(http:\/\/\S+\/fitbit\/reauthorize\?participantId=P[0-9a-f]{16})/.exec(
        mail.text,
      )?.[1];
      expect(link).toBeTruthy();

      await page.goto(link ?? '');
      await expect(page.getByRole('heading', { name: 'Quick Reauthorization' })).toBeVisible();
      await page.getByRole('button', { name: 'Reconnect Fitbit Device' }).click();
      await expect(page.getByRole('alert')).toHaveText('Email is required for verification.');
      await page.getByLabel('Email Address').fill(participantEmail);
      await shotsAtBothWidths(page, testInfo, 'quick-reauthorization');
      await expectAccessibleAtBothWidths(page, 'quick-reauthorization');
      await page.getByRole('button', { name: 'Reconnect Fitbit Device' }).click();
      // Sleep left out at first, then shared from the callback's button.
      await consent(page, ACCOUNT, [SLEEP_SCOPE]);
      await expectSleepNotShared(page);
      await page.getByRole('button', { name: 'Share the Missing Data' }).click();
      await consent(page, ACCOUNT);
      await expectConnected(page);
      await expect(
        page.getByText('You shared: Activity, Heart & body, Sleep, Profile, Settings.'),
      ).toBeVisible();

      listing = await openListing(page);
      await expect(listing.locator(`tr[data-participant-id="${participantId}"]`)).toContainText(
        'Authorized',
      );
      await expect(listing.locator(`tr[data-participant-id="${participantId}"]`)).toContainText(
        'Sleep',
      );
      await expect(listing.locator(`tr[data-participant-id="${participantId}"]`)).not.toContainText(
        'Not shared',
      );
      await shotsAtBothWidths(page, testInfo, 'listing-active-again');
      await expectAccessibleAtBothWidths(page, 'listing-active-again');
    });
  });
