import { expect, type Page, test } from '@playwright/test';
import {
  ADHERENCE_STATE_LABELS,
  ADHERENCE_TEXTS,
  type AdherenceResponse,
  adherenceDay,
  PARTICIPANT_CHARTS_TEXTS,
  REMINDER_MESSAGES,
  REMINDER_TEXTS,
  REMINDERS_STOP_TEXTS,
  SYNC_REMINDER_MAIL_TEXTS,
} from '@research/contracts';
import { timeZoneAt } from '@research/sandbox';
import { expectAccessibleAtBothWidths } from './a11y';
import {
  addParticipant,
  apiJson,
  approveApplication,
  connectOverHttp,
  createMaster,
  deviceSync,
  fetchNew,
  registerAndApply,
  SANDBOX_URL,
  shotsAtBothWidths,
  signIn,
  uniqueEmail,
} from './helpers';

/**
 * Adherence as a coordinator meets it: two participants are connected, one keeps syncing and the
 * other's tracker last synced three days ago. The owner opens the Adherence tab, finds that one
 * flagged at risk with the days since the sync and what their day holds, opens their charts; the
 * participant gets one reminder to sync (the study reminds after two days) and stops further ones
 * from its link. The one who keeps syncing gets none.
 *
 * The server learns a device's last sync from Google's paired-devices answer, asked whenever a
 * notification is collected: the stopped tracker is first set back five days (a step back
 * announces nothing), then synced forward to three days ago, whose notification brings that sync.
 * The reminder run is every minute in this configuration (REMINDER_CRON in playwright.config.ts).
 */

const masterEmail = uniqueEmail('adh-master');
const masterPassword = 'correct-horse-1-master';
const owner = { name: 'Katherine Johnson', email: uniqueEmail('adh-owner') };
const STUDY = 'Sleep and Steps';
const healthy = {
  firstName: 'Ada',
  lastName: 'Okafor',
  email: uniqueEmail('adh-ada'),
  account: 'adh.ada@gmail.test',
};
const stopped = {
  firstName: 'Ben',
  lastName: 'Mensah',
  email: uniqueEmail('adh-ben'),
  account: 'adh.ben@gmail.test',
};
const name = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

interface InboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
}

async function inbox(to: string): Promise<InboxMessage[]> {
  const response = await fetchNew(
    `${SANDBOX_URL}/inbox/messages.json?to=${encodeURIComponent(to)}`,
  );
  return ((await response.json()) as { messages: InboxMessage[] }).messages;
}

const reminders = async (to: string) =>
  (await inbox(to)).filter((m) => m.subject === SYNC_REMINDER_MAIL_TEXTS.subject);

/** The sandbox's tracker of this Google account syncs; `until` (RFC 3339) where to, else now. */
/** The participant proves their address with the e-mail code, as on the verify page. */
async function verifyEmail(participantId: string, email: string, studyCode: string) {
  const subject = { participantId, email, studyCode };
  await apiJson('/api/verification/send-email-code', { method: 'POST', body: subject });
  let code = '';
  await expect
    .poll(
      async () => {
        const mail = (await inbox(email)).find((m) => m.subject.startsWith('Your verification'));
        code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
        return code;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^\d{6}$/);
  await apiJson('/api/verification/verify-email-code', {
    method: 'POST',
    body: { ...subject, verificationCode: code },
  });
}

let studyId = '';
let token = '';
const ids = { healthy: '', stopped: '' };
/** When the stopped participant's tracker synced last. */
let stoppedSyncedAt = '';

async function adherence(): Promise<AdherenceResponse> {
  return apiJson<AdherenceResponse>(`/api/studies/${studyId}/adherence`, { token });
}

async function openAdherenceTab(page: Page) {
  await page.goto(`/researcher/study/${studyId}`);
  const tab = page.getByRole('tab', { name: /^Adherence/ });
  await expect(tab).toHaveText('Adherence (1)');
  await tab.click();
  await expect(page.getByRole('grid', { name: ADHERENCE_TEXTS.heatmap.label })).toBeVisible();
}

test.describe
  .serial('adherence: a participant who stopped syncing', () => {
    test.beforeAll(async () => {
      test.setTimeout(120_000);
      createMaster(masterEmail, masterPassword);
      const applicant = await registerAndApply(owner.name, owner.email);
      token = applicant.token;
      await approveApplication(masterEmail, masterPassword, applicant.applicationId);
      // Reminders after two days without a sync (off unless the owner says).
      const { study } = await apiJson<{ study: { id: string; studyCode: string } }>(
        '/api/auth/create-study',
        {
          method: 'POST',
          token,
          body: { name: STUDY, settings: { reminderNoSyncDays: 2, consentRequired: false } },
        },
      );
      studyId = study.id;
      for (const [key, person] of [
        ['healthy', healthy],
        ['stopped', stopped],
      ] as const) {
        const id = addParticipant(study.studyCode, person);
        ids[key] = id;
        await connectOverHttp({
          participantId: id,
          studyCode: study.studyCode,
          token,
          choice: { account: 'custom', email: person.account, name: name(person) },
        });
        // Both could be reminded: each proved their address.
        await verifyEmail(id, person.email, study.studyCode);
      }

      // Ada's tracker syncs now (from three hours ago).
      expect((await deviceSync(healthy.account, hoursAgo(3))).notifications).toBe(0);
      expect((await deviceSync(healthy.account)).notifications).toBeGreaterThan(0);
      // Ben's last synced three days ago: back five days, then forward to then.
      expect((await deviceSync(stopped.account, hoursAgo(5 * 24))).notifications).toBe(0);
      const synced = await deviceSync(stopped.account, hoursAgo(3 * 24 + 1));
      expect(synced.notifications).toBeGreaterThan(0);
      stoppedSyncedAt = new Date(synced.syncedUntil as string).toISOString();

      // The notifications are collected in the background: both devices' syncs become known.
      await expect
        .poll(
          async () => {
            const rows = (await adherence()).participants;
            const of = (id: string) => rows.find((r) => r.participantId === id);
            return [of(ids.stopped)?.lastDeviceSyncAt, Boolean(of(ids.healthy)?.lastDeviceSyncAt)];
          },
          { timeout: 60_000 },
        )
        .toEqual([stoppedSyncedAt, true]);
    });

    test('the coordinator finds the participant at risk and opens their charts; the participant is reminded once', async ({
      page,
      browser,
    }, testInfo) => {
      test.setTimeout(240_000);
      const { summary, participants } = await adherence();
      expect(summary).toMatchObject({ enrolled: 2, connected: 2, atRisk: 1 });
      const ben = participants.find((r) => r.participantId === ids.stopped);
      expect(ben).toMatchObject({ atRisk: true, daysWithoutSync: 3 });

      // The reminder run (every minute here) finds Ben due: two days or more without a sync.
      await expect
        .poll(async () => (await reminders(stopped.email)).length, { timeout: 150_000 })
        .toBe(1);
      const remindedAt = Date.now();

      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      await openAdherenceTab(page);
      await expect(page).toHaveURL(/\?tab=5$/);
      await expect(
        page.getByText(ADHERENCE_TEXTS.summary({ ...summary, atRisk: 1 }), { exact: true }),
      ).toBeVisible();

      // The table: Ben at risk, his last sync three days ago; Ada on track.
      const table = page.getByRole('table', { name: ADHERENCE_TEXTS.table.label });
      const benRow = table.getByRole('row', { name: new RegExp(name(stopped)) });
      await expect(benRow.getByText(ADHERENCE_TEXTS.table.atRisk, { exact: true })).toBeVisible();
      await expect(benRow.locator('time')).toHaveText('3 days ago');
      const adaRow = table.getByRole('row', { name: new RegExp(name(healthy)) });
      await expect(adaRow.getByText(ADHERENCE_TEXTS.table.onTrack, { exact: true })).toBeVisible();
      await expect(adaRow.locator('time')).toHaveText(/^(just now|\d+ minutes? ago)$/);

      // The map: Ben's days before he enrolled, then today with nothing collected; the day's
      // details show as it takes the focus.
      const grid = page.getByRole('grid', { name: ADHERENCE_TEXTS.heatmap.label });
      const benMapRow = grid.getByRole('row').filter({ hasText: name(stopped) });
      const days = (await adherence()).days;
      const today = days.at(-1) as string;
      const todayCell = benMapRow.getByRole('gridcell', {
        name: `${adherenceDay(today)}: ${ADHERENCE_STATE_LABELS.not_collected}`,
        exact: true,
      });
      await todayCell.focus();
      await expect(page.getByTestId('heat-map-details')).toHaveText(
        ADHERENCE_TEXTS.heatmap.details(
          name(stopped),
          `${adherenceDay(today)}: ${ADHERENCE_STATE_LABELS.not_collected}`,
        ),
      );
      await expect(
        benMapRow.getByRole('gridcell', {
          name: `${adherenceDay(days.at(-2) as string)}: ${ADHERENCE_STATE_LABELS.not_enrolled}`,
          exact: true,
        }),
      ).toHaveCount(1);
      // Ada's today (in her own time zone) is there so far: the ledger says it is not over.
      const adaToday = new Intl.DateTimeFormat('en-CA', {
        timeZone: timeZoneAt(Date.now()),
      }).format(new Date());
      if (days.includes(adaToday))
        await expect(
          grid
            .getByRole('row')
            .filter({ hasText: name(healthy) })
            .getByRole('gridcell', {
              name: new RegExp(`^${adherenceDay(adaToday)}: .*${ADHERENCE_STATE_LABELS.partial}`),
            }),
        ).toHaveCount(1);
      // The page scrolled to the focused day: from the top, the shot shows the app bar in place.
      await page.evaluate(() => window.scrollTo(0, 0));
      await shotsAtBothWidths(page, testInfo, 'adherence-tab');
      await expectAccessibleAtBothWidths(page, 'adherence-tab');

      // Ben's charts, from his row of the table.
      await benRow
        .getByRole('link', { name: ADHERENCE_TEXTS.table.openCharts(name(stopped)) })
        .click();
      await expect(page).toHaveURL(
        new RegExp(`/researcher/study/${studyId}/participant/${ids.stopped}$`),
      );
      await expect(page.getByRole('heading', { level: 1, name: name(stopped) })).toBeVisible();
      await expect(
        page.getByText(`${PARTICIPANT_CHARTS_TEXTS.title} · ${ids.stopped} · ${STUDY}`),
      ).toBeVisible();
      // Nothing collected since he enrolled: each chart says so rather than drawing empty axes.
      for (const chart of [
        PARTICIPANT_CHARTS_TEXTS.steps,
        PARTICIPANT_CHARTS_TEXTS.restingHeartRate,
        PARTICIPANT_CHARTS_TEXTS.sleep,
        PARTICIPANT_CHARTS_TEXTS.wear,
      ])
        await expect(
          page.getByRole('figure', { name: chart }).getByText(PARTICIPANT_CHARTS_TEXTS.noData),
        ).toBeVisible();
      await expect(page.getByText(PARTICIPANT_CHARTS_TEXTS.noHeartRate)).toBeVisible();
      await shotsAtBothWidths(page, testInfo, 'adherence-charts');
      await expectAccessibleAtBothWidths(page, 'adherence-charts');
      await page.getByRole('link', { name: PARTICIPANT_CHARTS_TEXTS.backToStudy }).click();
      await expect(page.getByRole('tab', { name: /^Adherence/ })).toHaveAttribute(
        'aria-selected',
        'true',
      );

      // One reminder only: a later run (a minute on) sends no second one; Ada got none.
      const waited = Date.now() - remindedAt;
      if (waited < 75_000) await page.waitForTimeout(75_000 - waited);
      const [mail, ...more] = await reminders(stopped.email);
      expect(more).toEqual([]);
      expect(await reminders(healthy.email)).toEqual([]);
      expect(mail?.text).toContain(SYNC_REMINDER_MAIL_TEXTS.intro(STUDY, 2));
      expect(mail?.text).toContain(SYNC_REMINDER_MAIL_TEXTS.participantIdLine(ids.stopped));
      expect(mail?.text).toContain(REMINDER_TEXTS.stopLinkLabel);

      // The stop link, in the participant's own browser: its page, the button, the confirmation.
      const link = /https?:\/\/\S+\/participant\/reminders\/stop\?token=[A-Za-z0-9_-]+/.exec(
        mail?.text ?? '',
      )?.[0];
      expect(link, mail?.text).toBeTruthy();
      const own = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const mine = await own.newPage();
      await mine.goto(link as string);
      await expect(
        mine.getByRole('heading', { level: 1, name: REMINDERS_STOP_TEXTS.title }),
      ).toBeVisible();
      await expect(mine.getByText(REMINDERS_STOP_TEXTS.intro)).toBeVisible();
      await shotsAtBothWidths(mine, testInfo, 'adherence-reminders-stop');
      await expectAccessibleAtBothWidths(mine, 'reminders-stop');
      await mine.getByRole('button', { name: REMINDERS_STOP_TEXTS.confirm }).click();
      await expect(
        mine.getByRole('heading', { level: 1, name: REMINDERS_STOP_TEXTS.stoppedTitle }),
      ).toBeVisible();
      await expect(mine.getByRole('status')).toHaveText(REMINDER_MESSAGES.stopped);
      await shotsAtBothWidths(mine, testInfo, 'adherence-reminders-stopped');
      await expectAccessibleAtBothWidths(mine, 'reminders-stopped');
      await own.close();
    });
  });

function hoursAgo(hours: number): string {
  return new Date(Date.now() - hours * 3_600_000).toISOString();
}
