import { expect, type Page, test } from '@playwright/test';
import { civilDayTotals } from '@research/sandbox';
import { expectAccessibleAtBothWidths } from './a11y';
import {
  APP_URL,
  addParticipant,
  apiJson,
  approveApplication,
  connectOverHttp,
  createMaster,
  expectFullyShown,
  expectNoSidewaysScroll,
  fetchNew,
  registerAndApply,
  SANDBOX_URL,
  shotsAtBothWidths,
  signIn,
  uniqueEmail,
} from './helpers';

/**
 * Data extraction end to end: two participants connected with simulated Google accounts, a
 * researcher selects both and three types over a range, names the run, watches the determinate
 * progress reach 100 %, opens Extraction Details, then opens 'Go to Bucket' and downloads a CSV
 * whose rows match the sandbox's deterministic data.
 */

const masterEmail = uniqueEmail('ext-master');
const masterPassword = 'correct-horse-1-master';
const owner = { name: 'Katherine Johnson', email: uniqueEmail('ext-owner') };
const ACCOUNTS = ['ext.alice@gmail.test', 'ext.bob@gmail.test'];

let studyId = '';
let studyCode = '';
let researcherToken = '';

/**
 * The Data export tab's closed 'Extraction runs' section, opened: the extraction panel lives
 * there, below the export form (whose fields share some labels, hence the scoping).
 */
async function openExtractionRuns(page: Page) {
  await page.getByRole('button', { name: 'Extraction runs' }).click();
  const runs = page.getByRole('region', { name: 'Extraction runs' });
  await expect(runs.getByRole('heading', { name: 'Data Extraction', level: 2 })).toBeVisible();
  return runs;
}

/** The participant's consent on the sandbox's Google page, over HTTP, then the callback call. */
function connect(participantId: string, account: string, token: string) {
  return connectOverHttp({
    participantId,
    studyCode,
    token,
    choice: { account: 'custom', email: account, name: 'Participant' },
  });
}

test.describe
  .serial('data extraction', () => {
    test.beforeAll(async () => {
      createMaster(masterEmail, masterPassword);
      const { token, applicationId } = await registerAndApply(owner.name, owner.email);
      await approveApplication(masterEmail, masterPassword, applicationId);
      const { study } = await apiJson<{ study: { id: string; studyCode: string } }>(
        '/api/auth/create-study',
        {
          method: 'POST',
          token,
          body: { name: 'Steps and Sleep Pilot', settings: { consentRequired: false } },
        },
      );
      studyId = study.id;
      studyCode = study.studyCode;
      researcherToken = token;
      const names: [string, string][] = [
        ['Alice', 'Ball'],
        ['Bob', 'Moses'],
      ];
      for (const [i, account] of ACCOUNTS.entries()) {
        const email = uniqueEmail(`ext-p${i}`);
        const [first, last] = names[i] ?? ['P', 'Q'];
        const id = addParticipant(studyCode, { email, firstName: first, lastName: last });
        await connect(id, account, token);
      }
    });

    test('a researcher extracts two participants × three types and downloads a CSV from the bucket', async ({
      page,
      context,
    }, testInfo) => {
      test.setTimeout(180_000);
      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      await page.goto(`/researcher/study/${studyId}?tab=4`);
      const runs = await openExtractionRuns(page);

      await runs.getByRole('button', { name: 'Select all connected (2)' }).click();
      await runs.getByRole('button', { name: 'Date Range' }).click();
      await runs.getByLabel('Start date').fill('2026-11-01');
      await runs.getByLabel('End date').fill('2026-11-03');
      const types = runs.getByRole('combobox', { name: 'Data types' });
      await types.click();
      // profile is preselected: untick it, tick three others.
      for (const type of [
        'profile',
        'activity_steps_timeseries',
        'heartrate_timeseries',
        'sleep_log',
      ]) {
        await page.getByRole('option', { name: new RegExp(`^${type}`) }).click();
      }
      await page.keyboard.press('Escape');
      // The server's plan: a day roll-up for steps, two calls for heart rate, one for sleep,
      // for each of the two; a few seconds, not the minutes of participants × types × days.
      await expect(
        page.getByText('Estimated API calls').locator('xpath=following-sibling::*[1]'),
      ).toHaveText('8');
      await expect(
        page.getByText('Estimated time').locator('xpath=following-sibling::*[1]'),
      ).toHaveText(/^(about \d+ seconds?|\d+–\d+ seconds)$/);
      await shotsAtBothWidths(page, testInfo, 'extraction-panel');
      await expectAccessibleAtBothWidths(page, 'extraction-panel');

      await page.getByRole('button', { name: 'Preview extraction' }).click();
      const preview = page.getByRole('dialog', { name: 'Extraction Preview' });
      await expect(preview.getByText('Alice Ball')).toBeVisible();
      await expectAccessibleAtBothWidths(page, 'extraction-preview');
      await preview.getByRole('button', { name: 'Close' }).click();

      await page.getByRole('button', { name: 'Start Extraction' }).click();
      const naming = page.getByRole('dialog', { name: 'Name Your Extraction' });
      await expect(naming.getByLabel('Extraction name')).toHaveValue(
        /^Extraction_\d{4}-\d{2}-\d{2}_2participants$/,
      );
      await naming.getByLabel('Extraction name').fill('Pilot November');
      await expectAccessibleAtBothWidths(page, 'extraction-naming');
      await naming.getByRole('button', { name: 'Start Extraction' }).click();

      const jobs = page.getByTestId('extraction-job');
      await expect(jobs).toHaveCount(2);
      await expect(jobs.first().getByText('Pilot Nove...')).toBeVisible();
      for (const bar of await runs.getByRole('progressbar', { name: /progress$/ }).all()) {
        await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 60_000 });
      }
      await expect(jobs.first().getByText('completed')).toBeVisible();
      await shotsAtBothWidths(page, testInfo, 'extraction-jobs-done');
      await expectAccessibleAtBothWidths(page, 'extraction-jobs-done');

      await jobs.first().getByRole('button', { name: 'Detail' }).click();
      const details = page.getByRole('dialog', { name: 'Extraction Details' });
      await expect(details.getByRole('cell', { name: 'activity_steps_timeseries' })).toBeVisible();
      await expect(details.getByText('manifest.json', { exact: true })).toBeVisible({
        timeout: 30_000,
      });
      await shotsAtBothWidths(page, testInfo, 'extraction-details');
      await expectAccessibleAtBothWidths(page, 'extraction-details');
      // On a phone each task can be read whole, without scrolling anything sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      const task = details
        .getByRole('row')
        .or(details.getByRole('listitem'))
        .filter({ hasText: 'activity_steps_timeseries' })
        .first();
      for (const value of ['activity_steps_timeseries', /^2026-11-0\d/, 'completed']) {
        await expectFullyShown(task.getByText(value, { exact: true }).first());
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await details.getByRole('button', { name: 'Close' }).click();

      // A reloaded page shows the same state.
      await page.reload();
      await openExtractionRuns(page);
      await expect(page.getByTestId('extraction-job')).toHaveCount(2);

      const listingPromise = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Go to Bucket' }).click();
      const listing = await listingPromise;
      await listing.waitForLoadState();
      const csvLink = listing.getByRole('link', { name: /activity_steps_timeseries\.csv$/ });
      await expect(csvLink).toBeVisible();
      await shotsAtBothWidths(listing, testInfo, 'extraction-bucket');
      await expectAccessibleAtBothWidths(listing, 'extraction-bucket');
      await listing.setViewportSize({ width: 390, height: 844 });
      await expectNoSidewaysScroll(listing);
      const csvRow = listing.getByRole('row').or(listing.getByRole('listitem')).filter({
        has: csvLink,
      });
      await expectFullyShown(csvLink);
      await expectFullyShown(csvRow.getByText(/ UTC$/));
      await listing.setViewportSize({ width: 1280, height: 900 });
      const href = await csvLink.getAttribute('href');
      const csv = await (await fetchNew(new URL(href ?? '', APP_URL))).text();
      const [header, ...lines] = csv.trim().split('\n');
      expect(header).toBe('participant_id,date,steps_count');
      const byAccount = ACCOUNTS.map((account) =>
        ['2026-11-01', '2026-11-02', '2026-11-03'].map((d) => civilDayTotals(account, d).steps),
      );
      const firstThree = lines.slice(0, 3).map((line) => Number(line.split(',')[2]));
      expect(byAccount).toContainEqual(firstThree);
      expect(lines).toHaveLength(6);
    });
    test('a participant whose grant Google revoked fails at once, not after a minute of retries', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const account = 'ext.carol@gmail.test';
      const id = addParticipant(studyCode, {
        email: uniqueEmail('ext-revoked'),
        firstName: 'Carol',
        lastName: 'Revoked',
      });
      await connect(id, account, researcherToken);
      const revoked = await fetchNew(`${SANDBOX_URL}/__admin/health/revoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: account }),
      });
      expect(revoked.ok).toBe(true);

      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      await page.goto(`/researcher/study/${studyId}?tab=4`);
      const runs = await openExtractionRuns(page);
      await runs.getByLabel('Date', { exact: true }).fill('2026-11-05');
      const picker = runs.getByRole('combobox', { name: 'Participants' });
      await picker.click();
      await page.getByRole('option', { name: /Carol Revoked/ }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Start Extraction' }).click();
      const naming = page.getByRole('dialog', { name: 'Name Your Extraction' });
      await naming.getByLabel('Extraction name').fill('Revoked grant');
      const started = Date.now();
      await naming.getByRole('button', { name: 'Start Extraction' }).click();
      const job = page.getByTestId('extraction-job').filter({ hasText: 'Carol Revoked' });
      await expect(job.getByText('failed', { exact: true })).toBeVisible({ timeout: 60_000 });
      console.log(`revoked grant: failed after ${Date.now() - started} ms`);
      await expect(job).toContainText('needs to be renewed');
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });
