import { expect, test } from '@playwright/test';
import {
  DEVICE_SYNC_TEXTS,
  dayLabel,
  daySummaryLine,
  type ParticipantRow,
  syncedAt,
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
  registerAndApply,
  shotsAtBothWidths,
  signIn,
  uniqueEmail,
} from './helpers';

/**
 * Continuous collection as a researcher sees it: the study screen stays open on the Participants
 * tab while the sandbox's tracker syncs; Google (the sandbox) notifies the server, which fetches
 * the synced days, and the open page shows the participant's last sync and today's figures so
 * far, without a reload and without anyone starting a run. The participant enrolled today, so
 * today is the only study day the sync can bring.
 */

const masterEmail = uniqueEmail('sync-master');
const masterPassword = 'correct-horse-1-master';
const owner = { name: 'Mary Jackson', email: uniqueEmail('sync-owner') };
const ACCOUNT = 'sync.ada@gmail.test';

let studyId = '';

test.describe
  .serial('device sync on the open study screen', () => {
    let token = '';

    test.beforeAll(async () => {
      createMaster(masterEmail, masterPassword);
      const applicant = await registerAndApply(owner.name, owner.email);
      token = applicant.token;
      await approveApplication(masterEmail, masterPassword, applicant.applicationId);
      const { study } = await apiJson<{ study: { id: string; studyCode: string } }>(
        '/api/auth/create-study',
        {
          method: 'POST',
          token,
          body: { name: 'Daily Rhythms', settings: { consentRequired: false } },
        },
      );
      studyId = study.id;
      const id = addParticipant(study.studyCode, {
        email: uniqueEmail('sync-p'),
        firstName: 'Ada',
        lastName: 'Okafor',
      });
      await connectOverHttp({
        participantId: id,
        studyCode: study.studyCode,
        token,
        choice: { account: 'custom', email: ACCOUNT, name: 'Ada Okafor' },
      });
      // The tracker last synced three hours ago (nothing is announced for a step back): the sync
      // below then brings the hours since, today's among them.
      const back = await deviceSync(ACCOUNT, new Date(Date.now() - 3 * 3_600_000).toISOString());
      expect(back.notifications).toBe(0);
    });

    test("the participant's last sync and today's figures appear on the open page", async ({
      page,
    }, testInfo) => {
      test.setTimeout(150_000);
      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      await page.goto(`/researcher/study/${studyId}`);
      const table = page.getByRole('table', { name: 'Participants' });
      const row = table.getByRole('row', { name: /Ada Okafor/ });
      await expect(
        table.getByRole('columnheader', { name: DEVICE_SYNC_TEXTS.lastSynced }),
      ).toBeVisible();
      await expect(row.getByText(DEVICE_SYNC_TEXTS.never, { exact: true })).toBeVisible();
      await expect(row.getByText(DEVICE_SYNC_TEXTS.noData, { exact: true })).toBeVisible();
      // A mark on this document: still there afterwards means the page was not reloaded.
      await page.evaluate(() => {
        (window as unknown as { openedOnce: boolean }).openedOnce = true;
      });

      const synced = await deviceSync(ACCOUNT);
      expect(synced.notifications).toBeGreaterThan(0);
      const started = Date.now();

      const lastSynced = row.locator('time');
      await expect(lastSynced).toHaveText(/^(just now|1 minute ago)$/, { timeout: 60_000 });
      const today = new Intl.DateTimeFormat('en-CA', {
        timeZone: timeZoneAt(Date.now()),
      }).format(new Date());
      const latest = row.getByText(`${dayLabel({ date: today, partial: true })}: `);
      await expect(latest).toBeVisible({ timeout: 60_000 });
      console.log(`device sync shown on the open page after ${Date.now() - started} ms`);
      expect(
        await page.evaluate(() => (window as unknown as { openedOnce?: boolean }).openedOnce),
      ).toBe(true);

      // What the page says is what the server collected: the device's sync, today's ledger.
      await expect(lastSynced).toHaveAttribute('title', syncedAt(synced.syncedUntil as string));
      const { participants } = await apiJson<{ participants: ParticipantRow[] }>(
        `/api/studies/${studyId}/participants`,
        { token },
      );
      const listed = participants[0] as ParticipantRow;
      expect(listed.lastDeviceSyncAt).toBe(new Date(synced.syncedUntil as string).toISOString());
      expect(listed.latestDay?.date).toBe(today);
      expect(listed.latestDay?.partial).toBe(true);
      await expect(latest).toHaveText(
        daySummaryLine(listed.latestDay as NonNullable<ParticipantRow['latestDay']>),
      );
      // Heart rate runs all night, so today has wear time whatever the hour; steps it has only
      // once the simulated person (in New York) is up, so the line above is the check for them.
      await expect(latest).toContainText('worn');
      // No run was started: the study has no extraction job.
      const { jobs } = await apiJson<{ jobs: unknown[] }>(
        `/api/studies/${studyId}/extraction-jobs`,
        { token },
      );
      expect(jobs).toEqual([]);

      await shotsAtBothWidths(page, testInfo, 'device-sync');
      await expectAccessibleAtBothWidths(page, 'device-sync');
      // On a phone each participant is a card: the same values, labelled.
      await page.setViewportSize({ width: 390, height: 844 });
      const card = page.getByRole('listitem').filter({ hasText: 'Ada Okafor' });
      await expect(card.getByText(DEVICE_SYNC_TEXTS.lastSynced)).toBeVisible();
      await expect(card.locator('time')).toHaveText(/ago$|^just now$/);
      await expect(card.getByText(`${dayLabel({ date: today, partial: true })}: `)).toBeVisible();
    });
  });
