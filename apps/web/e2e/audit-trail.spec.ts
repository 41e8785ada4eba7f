import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { AUDIT_KIND_LABELS, AUDIT_TEXTS } from '@research/contracts';
import { expectAccessibleAtBothWidths } from './a11y';
import {
  addParticipant,
  apiJson,
  approvedResearcher,
  createMaster,
  expectNoSidewaysScroll,
  loginToken,
  signIn,
  uniqueEmail,
} from './helpers';

/**
 * The audit trail as a study's owner meets it: from the study header to the trail, where the
 * study's creation and a participant's details read by the owner are on record with who and from
 * where; filtered by kind; downloaded as CSV. Then the master's platform trail from the dashboard.
 */

const master = { email: uniqueEmail('aud-master'), password: 'correct-horse-1-master' };
const owner = { name: 'Grace Hopper', email: uniqueEmail('aud-owner') };
let studyId = '';

test.beforeAll(async () => {
  createMaster(master.email, master.password);
  await approvedResearcher(master, owner.name, owner.email);
  const token = await loginToken(owner.email);
  const created = await apiJson<{ study: { id: string; studyCode: string } }>(
    '/api/auth/create-study',
    { method: 'POST', token, body: { name: 'Audited study', password: 'audit-pass' } },
  );
  studyId = created.study.id;
  const participantId = addParticipant(created.study.studyCode, {
    email: uniqueEmail('aud-participant'),
    firstName: 'Ada',
    lastName: 'Okafor',
  });
  // A read of personal data, which the trail must show.
  await apiJson(`/api/participants/${participantId}/info`, { token });
});

test('the owner opens the trail from the study, filters it and downloads the CSV', async ({
  page,
}) => {
  await signIn(page, owner.email);
  await expect(page).toHaveURL(/\/researcher\/dashboard/);
  await page.goto(`/researcher/study/${studyId}`);
  await page.getByRole('link', { name: AUDIT_TEXTS.studyTab }).click();
  await expect(page.getByRole('heading', { name: AUDIT_TEXTS.studyTitle })).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByText('Created the study')).toBeVisible();
  await expect(table.getByText('Viewed a participant’s details')).toBeVisible();
  await expect(table.getByText(owner.email).first()).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'study audit trail');

  await page.getByLabel(AUDIT_TEXTS.filters.kind).click();
  await page.getByRole('option', { name: AUDIT_KIND_LABELS.settings }).click();
  await expect(table.getByText('Created the study')).toBeVisible();
  await expect(table.getByText('Viewed a participant’s details')).toHaveCount(0);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: AUDIT_TEXTS.downloadCsv }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-study-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path()) as string, 'utf8');
  expect(csv.split('\n')[0]).toBe(AUDIT_TEXTS.csvHeader.join(','));
  expect(csv).toContain('study.created');
  expect(csv).not.toContain('participant.viewed');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByText('Created the study')).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('the master opens the platform trail from the dashboard', async ({ page }) => {
  await signIn(page, master.email, master.password);
  await expect(page).toHaveURL(/\/master\/dashboard/);
  await page.getByRole('link', { name: AUDIT_TEXTS.platformLink }).click();
  await expect(page.getByRole('heading', { name: AUDIT_TEXTS.platformTitle })).toBeVisible();
  await expect(page.getByText('Approved an application').first()).toBeVisible();
  await expectAccessibleAtBothWidths(page, 'platform audit trail');
});
