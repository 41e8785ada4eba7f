import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { civilDayTotals, timeZoneAt } from '@research/sandbox';
import yauzl from 'yauzl';
import { expectAccessibleAtBothWidths } from './a11y';
import {
  addParticipant,
  apiJson,
  approveApplication,
  connectOverHttp,
  createMaster,
  deviceSync,
  expectFullyShown,
  expectNoSidewaysScroll,
  loginToken,
  registerAndApply,
  signIn,
  uniqueEmail,
} from './helpers';

/**
 * The Data export tab as a researcher meets it: two participants whose trackers synced the past
 * week, an export of both over that week (daily activity, heart rate per minute, sleep) as Parquet
 * and CSV, followed in the list until completed, downloaded as a ZIP whose files are what its
 * manifest says and hold what the trackers recorded. Then an access token, created in the panel
 * below and shown once, fetches the same export from a script's side.
 */

const masterEmail = uniqueEmail('exp-master');
const masterPassword = 'correct-horse-1-master';
const owner = { name: 'Dorothy Vaughan', email: uniqueEmail('exp-owner') };
const PEOPLE = [
  { first: 'Ada', last: 'Okafor', account: 'exp.ada@gmail.test' },
  { first: 'Ben', last: 'Ruiz', account: 'exp.ben@gmail.test' },
];
const TYPES = ['activity_summary', 'heartrate_intraday_1min', 'sleep_log'] as const;
/** The tables those types give: sleep brings its stages as a table of their own. */
const TABLES = ['activity_summary', 'heartrate_intraday_1min', 'sleep_log', 'sleep_stages'];
const EXPORT_NAME = 'Week of sleep and heart rate';

const DAY_MS = 86_400_000;
/** The participants' own today (the sandbox's time zone), and the seven full days before it. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: timeZoneAt(Date.now()) }).format(
  new Date(),
);
const dayBefore = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
const START = dayBefore(today, 7);
const END = dayBefore(today, 1);
const WEEK = Array.from({ length: 7 }, (_, i) => dayBefore(END, 6 - i));

let studyId = '';
const participantIds: string[] = [];
/** participant id → sandbox account. */
const accountOf = new Map<string, string>();
let exportId = '';
let downloaded: Map<string, Buffer> = new Map();

interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
  rows: number | null;
}
interface Manifest {
  export: {
    id: string;
    name: string;
    participantIds: string[];
    dataTypes: string[];
    dateRange: { startDate: string; endDate: string };
    formats: string[];
    minuteGrid: boolean;
  };
  missingPartitions: unknown[];
  files: ManifestFile[];
}

/** Every entry of a ZIP, by path. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      archive.on('error', reject);
      archive.on('end', () => resolve(files));
      archive.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return archive.readEntry();
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}

/** A CSV file's records as objects (RFC 4180: quoted fields may hold commas and quotes). */
function parseCsv(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  const [header = [], ...rows] = records;
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The ZIP's files agree with its manifest, and hold what the participants' trackers recorded. */
function checkArchive(files: Map<string, Buffer>) {
  for (const name of ['data_dictionary.csv', 'manifest.json', 'README.txt']) {
    expect([...files.keys()], `the ZIP has ${name}`).toContain(name);
  }
  const manifest = JSON.parse((files.get('manifest.json') as Buffer).toString('utf8')) as Manifest;
  expect(manifest.export.id).toBe(exportId);
  expect(manifest.export.name).toBe(EXPORT_NAME);
  expect([...manifest.export.participantIds].sort()).toEqual([...participantIds].sort());
  expect([...manifest.export.dataTypes].sort()).toEqual([...TYPES].sort());
  expect(manifest.export.dateRange).toEqual({ startDate: START, endDate: END });
  expect([...manifest.export.formats].sort()).toEqual(['csv', 'parquet']);
  expect(manifest.export.minuteGrid).toBe(true);
  // The trackers synced the whole week: no day of anyone is missing.
  expect(manifest.missingPartitions).toEqual([]);

  // The manifest lists every file but itself, each as it is in the ZIP.
  const listed = manifest.files.map((f) => f.path).sort();
  expect([...files.keys()].filter((p) => p !== 'manifest.json').sort()).toEqual(listed);
  for (const table of TABLES) {
    expect(listed).toContain(`parquet/${table}.parquet`);
    expect(listed).toContain(`csv/${table}.csv`);
  }
  for (const file of manifest.files) {
    const bytes = files.get(file.path) as Buffer;
    expect(bytes.length, `${file.path}: bytes`).toBe(file.bytes);
    expect(sha256(bytes), `${file.path}: sha256`).toBe(file.sha256);
    if (file.path.endsWith('.csv') && file.path.startsWith('csv/')) {
      expect(parseCsv(bytes.toString('utf8')).length, `${file.path}: rows`).toBe(file.rows);
      // The same table as Parquet has as many rows.
      const parquet = manifest.files.find(
        (f) => f.path === file.path.replace(/^csv\/(.*)\.csv$/, 'parquet/$1.parquet'),
      );
      expect(parquet?.rows, `${file.path}: rows of the Parquet twin`).toBe(file.rows);
    } else if (!file.path.endsWith('.parquet')) {
      expect(file.rows, `${file.path}: not a table`).toBeNull();
    }
  }

  // The dictionary describes every column of every data file; the README loads files that are here.
  const dictionary = parseCsv((files.get('data_dictionary.csv') as Buffer).toString('utf8'));
  for (const table of TABLES) {
    const path = `csv/${table}.csv`;
    const text = (files.get(path) as Buffer).toString('utf8').replace(/^\uFEFF/, '');
    const header = text.split(/\r?\n/, 1)[0] ?? '';
    const described = dictionary.filter((r) => r.file === path).map((r) => r.column);
    expect(described, `${path}: the dictionary's columns`).toEqual(header.split(','));
  }
  const readme = (files.get('README.txt') as Buffer).toString('utf8');
  const loaded = [...readme.matchAll(/"((?:parquet|csv)\/[^"]+)"/g)].map((m) => m[1] as string);
  expect(loaded.length).toBeGreaterThan(0);
  for (const path of loaded) expect(listed, `README.txt loads ${path}`).toContain(path);

  // What the trackers recorded: each day's steps, a minute grid of every local minute, the
  // night's main sleep.
  const csv = (table: string) => parseCsv((files.get(`csv/${table}.csv`) as Buffer).toString());
  const summary = csv('activity_summary');
  const minutes = csv('heartrate_intraday_1min');
  const sleep = csv('sleep_log');
  for (const participantId of participantIds) {
    const account = accountOf.get(participantId) as string;
    for (const date of WEEK) {
      const expected = civilDayTotals(account, date);
      const day = summary.filter((r) => r.participant_id === participantId && r.date === date);
      expect(day, `${participantId} ${date}: activity_summary`).toHaveLength(1);
      expect(day[0]?.day_state).toBe('complete');
      expect(Number(day[0]?.steps_count), `${participantId} ${date}: steps`).toBe(expected.steps);
      const grid = minutes.filter((r) => r.participant_id === participantId && r.date === date);
      expect(grid.length, `${participantId} ${date}: minutes of the grid`).toBe(expected.minutes);
      expect(grid.some((r) => r.worn === 'true')).toBe(true);
      const main = sleep.filter(
        (r) =>
          r.participant_id === participantId && r.date_of_sleep === date && r.main_sleep === 'true',
      );
      expect(main, `${participantId} ${date}: main sleep`).toHaveLength(1);
      expect(Number(main[0]?.minutes_in_sleep_period)).toBe(expected.sleep.minutesInSleepPeriod);
    }
  }
  expect(csv('sleep_stages').length).toBeGreaterThan(0);
  return manifest;
}

/**
 * Shots of one part of the tab at 1280 and at 390 px (or of the screen, with a dialog open): a
 * full-page shot of the long study screen is too tall to look at.
 */
async function shotsOf(page: Page, testInfo: TestInfo, name: string, part?: Locator) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const path = testInfo.outputPath(`${name}-${width}.png`);
    if (part) await part.screenshot({ path, animations: 'disabled' });
    else await page.screenshot({ path, animations: 'disabled' });
    await testInfo.attach(`${name}-${width}`, { path, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** An option of an open list (participants, data types), by the start of its text. */
async function pick(page: Page, picker: Locator, options: RegExp[]) {
  await picker.click();
  for (const option of options) await page.getByRole('option', { name: option }).click();
  await page.keyboard.press('Escape');
}

test.describe
  .serial('data export', () => {
    test.beforeAll(async () => {
      test.setTimeout(120_000);
      createMaster(masterEmail, masterPassword);
      const { token, applicationId } = await registerAndApply(owner.name, owner.email);
      await approveApplication(masterEmail, masterPassword, applicationId);
      const { study } = await apiJson<{ study: { id: string; studyCode: string } }>(
        '/api/auth/create-study',
        {
          method: 'POST',
          token,
          body: { name: 'Sleep and Heart Week', settings: { consentRequired: false } },
        },
      );
      studyId = study.id;
      for (const person of PEOPLE) {
        const id = addParticipant(study.studyCode, {
          email: uniqueEmail(`exp-${person.first.toLowerCase()}`),
          firstName: person.first,
          lastName: person.last,
        });
        participantIds.push(id);
        accountOf.set(id, person.account);
        await connectOverHttp({
          participantId: id,
          studyCode: study.studyCode,
          token,
          choice: {
            account: 'custom',
            email: person.account,
            name: `${person.first} ${person.last}`,
          },
        });
        // The tracker had last synced eight days ago; now it syncs the week since (Google
        // notifies the server, which fetches what was announced).
        await deviceSync(person.account, new Date(Date.now() - 8 * DAY_MS).toISOString());
        const synced = await deviceSync(person.account);
        expect(synced.notifications).toBeGreaterThan(0);
      }
    });

    test('a researcher exports both participants’ week and downloads the ZIP', async ({
      page,
    }, testInfo) => {
      test.setTimeout(240_000);
      await page.setViewportSize({ width: 1280, height: 900 });
      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      await page.goto(`/researcher/study/${studyId}`);
      await page.getByRole('tab', { name: 'Data export' }).click();
      const panel = page.getByRole('region', { name: 'Data export' });
      await expect(panel.getByRole('heading', { name: 'New export' })).toBeVisible();
      await expect(panel.getByText('No exports yet.')).toBeVisible();

      await pick(page, panel.getByRole('combobox', { name: 'Participants' }), [
        /^Ada Okafor/,
        /^Ben Ruiz/,
      ]);
      await pick(
        page,
        panel.getByRole('combobox', { name: 'Data types' }),
        TYPES.map((type) => new RegExp(`^${type}`)),
      );
      await panel.getByLabel('Start date').fill(START);
      await panel.getByLabel('End date').fill(END);
      // Both formats and the minute grid are ticked to begin with.
      await expect(panel.getByRole('checkbox', { name: 'Parquet' })).toBeChecked();
      await expect(panel.getByRole('checkbox', { name: 'CSV' })).toBeChecked();
      await expect(panel.getByRole('checkbox', { name: /^Minute grid/ })).toBeChecked();
      await panel.getByLabel('Name (optional)').fill(EXPORT_NAME);
      // The scripts below carry the same selection.
      const script = page.getByRole('region', { name: 'R (httr2) script' });
      for (const id of participantIds) await expect(script).toContainText(id);
      await expect(script).toContainText(START);
      await shotsOf(page, testInfo, 'export-form', panel);
      await expectAccessibleAtBothWidths(page, 'export-form');

      await panel.getByRole('button', { name: 'Start export' }).click();
      await expect(panel.getByRole('status')).toHaveText(`Export started: ${EXPORT_NAME}`);
      const item = panel.getByTestId('export-item').filter({ hasText: EXPORT_NAME });
      await expect(item.getByText('completed', { exact: true })).toBeVisible({ timeout: 180_000 });
      const bar = item.getByRole('progressbar', { name: `${EXPORT_NAME} progress` });
      await expect(bar).toHaveAttribute('aria-valuenow', '100');
      // 2 participants × 3 types × 7 days, every one of them there.
      await expect(item).toContainText('42 / 42 partitions (100 %)');
      await expect(item.getByRole('alert')).toHaveCount(0);
      await expect(item).toContainText('2 participants');
      await expect(item).toContainText(`${START} – ${END}`);
      const { exports } = await apiJson<{ exports: { id: string; name: string }[] }>(
        `/api/studies/${studyId}/exports`,
        { token: await loginToken(owner.email) },
      );
      exportId = exports.find((e) => e.name === EXPORT_NAME)?.id ?? '';
      await shotsOf(page, testInfo, 'export-completed', item);
      await expectAccessibleAtBothWidths(page, 'export-completed');

      const downloadPromise = page.waitForEvent('download');
      await item.getByRole('button', { name: `Download ZIP of ${EXPORT_NAME}` }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toMatch(/\.zip$/);
      downloaded = await unzip(await readFile(await download.path()));
      const manifest = checkArchive(downloaded);

      // The file list shows the same files, the manifest among them.
      await item.getByRole('button', { name: 'Show files' }).click();
      const fileList = item.getByRole('table', { name: `Files of ${EXPORT_NAME}` });
      await expect(fileList.getByRole('row')).toHaveCount(manifest.files.length + 2);
      await expect(fileList.getByRole('cell', { name: 'manifest.json' })).toBeVisible();
      await shotsOf(page, testInfo, 'export-files', item);
      await expectAccessibleAtBothWidths(page, 'export-files');

      // On a phone nothing scrolls sideways and the export can be read and downloaded.
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoSidewaysScroll(page);
      await expectFullyShown(item.getByRole('button', { name: `Download ZIP of ${EXPORT_NAME}` }));
      await expectFullyShown(item.getByText('42 / 42 partitions (100 %)'));
      const card = item
        .getByRole('list', { name: `Files of ${EXPORT_NAME}` })
        .getByRole('listitem')
        .filter({ hasText: 'csv/heartrate_intraday_1min.csv' });
      await expectFullyShown(card.getByText('csv/heartrate_intraday_1min.csv'));
      await page.setViewportSize({ width: 1280, height: 900 });

      const scripts = page.getByRole('region', { name: 'Use from a script' });
      await shotsOf(page, testInfo, 'export-scripts', scripts);
      await scripts.getByRole('button', { name: 'Python (requests)' }).click();
      await expect(page.getByRole('region', { name: 'Python (requests) script' })).toContainText(
        'import requests',
      );
    });

    test('an access token made in the panel fetches the export from a script', async ({
      page,
      request,
    }, testInfo) => {
      test.setTimeout(120_000);
      expect(exportId, 'the export of the test before').not.toBe('');
      await page.setViewportSize({ width: 1280, height: 900 });
      await signIn(page, owner.email);
      await expect(page).toHaveURL(/\/researcher\/dashboard/);
      await page.goto(`/researcher/study/${studyId}`);
      await page.getByRole('tab', { name: 'Data export' }).click();
      const tokens = page.getByRole('region', { name: 'Access tokens' });
      await expect(tokens.getByText('No access tokens yet.')).toBeVisible();
      await tokens.getByRole('button', { name: 'Create token' }).click();
      const create = page.getByRole('dialog', { name: 'Create an access token' });
      await create.getByLabel('Name').fill('nightly export script');
      await shotsOf(page, testInfo, 'access-token-create');
      await expectAccessibleAtBothWidths(page, 'access-token-create');
      await create.getByRole('button', { name: 'Create token' }).click();

      const shown = page.getByRole('dialog', { name: 'Your new access token' });
      await expect(shown.getByText('it will not be shown again')).toBeVisible();
      const secret = await shown.getByLabel('Access token').inputValue();
      expect(secret).toMatch(/^wrp_pat_/);
      await shotsOf(page, testInfo, 'access-token-secret');
      await expectAccessibleAtBothWidths(page, 'access-token-secret');
      await page.setViewportSize({ width: 390, height: 844 });
      await expectFullyShown(shown.getByRole('button', { name: 'Done' }));
      await page.setViewportSize({ width: 1280, height: 900 });
      await shown.getByRole('button', { name: 'Done' }).click();
      await expect(shown).toBeHidden();
      const row = tokens.getByRole('row', { name: /nightly export script/ });
      await expect(row).toContainText('Active');
      await expect(row).not.toContainText(secret);
      await shotsOf(page, testInfo, 'access-tokens', tokens);
      await expectAccessibleAtBothWidths(page, 'access-tokens');

      // A script with the token: the list, the export's files and the ZIP.
      const bearer = { Authorization: `Bearer ${secret}` };
      const list = await request.get(`/api/studies/${studyId}/exports`, { headers: bearer });
      expect(list.status(), await list.text()).toBe(200);
      const listed = (await list.json()) as { exports: { id: string; status: string }[] };
      expect(listed.exports.find((e) => e.id === exportId)?.status).toBe('completed');
      const one = await request.get(`/api/studies/${studyId}/exports/${exportId}`, {
        headers: bearer,
      });
      expect(one.status(), await one.text()).toBe(200);
      const { files } = (await one.json()) as { files: ManifestFile[] };
      const archive = await request.get(`/api/studies/${studyId}/exports/${exportId}/archive`, {
        headers: bearer,
      });
      expect(archive.status()).toBe(200);
      expect(archive.headers()['content-type']).toBe('application/zip');
      const fetched = await unzip(await archive.body());
      // The same files as the browser's download, byte for byte.
      expect([...fetched.keys()].sort()).toEqual([...downloaded.keys()].sort());
      for (const [path, bytes] of fetched) {
        expect(sha256(bytes), path).toBe(sha256(downloaded.get(path) as Buffer));
      }
      for (const file of files) {
        expect(sha256(fetched.get(file.path) as Buffer), file.path).toBe(file.sha256);
      }

      // Without the token: 401, for the list and for the ZIP.
      const anonymousList = await request.get(`/api/studies/${studyId}/exports`);
      expect(anonymousList.status()).toBe(401);
      const anonymousZip = await request.get(`/api/studies/${studyId}/exports/${exportId}/archive`);
      expect(anonymousZip.status()).toBe(401);

      // The panel says the token was used.
      await page.reload();
      await expect(
        page.getByRole('region', { name: 'Access tokens' }).getByRole('row', {
          name: /nightly export script/,
        }),
      ).not.toContainText('Never');
    });
  });
