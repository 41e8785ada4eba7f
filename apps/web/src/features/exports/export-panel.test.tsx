import { DATA_TYPE_NOTES, type ExportFile, type ExportSummary } from '@research/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type FakeRoute,
  failure,
  installFakeApi,
  storeSession,
  TEST_TOKEN,
} from '../../test/fake-api';
import { makeAuthorizationRow } from '../../test/study-fixtures';
import { ExportPanel } from './export-panel';

const LIST = '/api/studies/s-1/exports';
const EXPORT_ID = 'e0000000-0000-4000-8000-000000000001';

const summary = (over: Partial<ExportSummary> = {}): ExportSummary => ({
  id: EXPORT_ID,
  name: 'Pilot week',
  status: 'running',
  createdAt: '2026-11-20T10:00:00.000Z',
  completedAt: null,
  createdBy: 'Ada Lovelace',
  participantCount: 2,
  dataTypes: ['activity_steps_intraday'],
  dateRange: { startDate: '2026-11-01', endDate: '2026-11-03' },
  formats: ['parquet'],
  minuteGrid: true,
  includeRaw: true,
  progress: { done: 4, total: 10, percent: 40 },
  missingPartitions: 0,
  bucket: 'study-s-1',
  prefix: `exports/${EXPORT_ID}/`,
  bytes: 0,
  error: null,
  ...over,
});

const completed = (over: Partial<ExportSummary> = {}) =>
  summary({
    status: 'completed',
    completedAt: '2026-11-20T10:05:00.000Z',
    progress: { done: 10, total: 10, percent: 100 },
    bytes: 2_048_000,
    ...over,
  });

const FILES: ExportFile[] = [
  {
    path: 'parquet/activity_steps_intraday.parquet',
    key: `exports/${EXPORT_ID}/parquet/activity_steps_intraday.parquet`,
    bytes: 1_536,
    sha256: 'ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12',
    rows: 4_320,
  },
  {
    path: 'manifest.json',
    key: `exports/${EXPORT_ID}/manifest.json`,
    bytes: 512,
    sha256: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    rows: null,
  },
];

function renderPanel(
  options: { exports?: ExportSummary[]; routes?: Record<string, FakeRoute> } = {},
) {
  const rows = [
    makeAuthorizationRow({}),
    makeAuthorizationRow({
      id: 'c0ffee00-0000-4000-8000-000000000002',
      participantId: 'P0000000000000002',
      name: 'Mary Seacole',
      email: 'mary@example.test',
    }),
    // Disconnected: her data already collected can still be exported.
    makeAuthorizationRow({
      id: 'c0ffee00-0000-4000-8000-000000000003',
      participantId: 'P0000000000000003',
      name: 'Ada Byron',
      email: 'ada@example.test',
      authorizationStatus: false,
      status: null,
      grantedScopes: [],
    }),
  ];
  const { calls } = installFakeApi({
    'GET /api/studies/s-1/wearable-authorizations': {
      body: { success: true, authorizations: rows, totalCount: rows.length },
    },
    [`GET ${LIST}`]: { body: { success: true, exports: options.exports ?? [] } },
    ...options.routes,
  });
  const posted = () =>
    calls.filter((c) => c.method === 'POST' && c.path === LIST).map((c) => c.body);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ExportPanel studyId="s-1" signedIn />
    </QueryClientProvider>,
  );
  return { calls, posted, user: userEvent.setup() };
}

type User = ReturnType<typeof userEvent.setup>;

/** Everyone, one type (chosen from the list, where its note shows), three days. */
async function fillForm(user: User) {
  await waitFor(() => expect(screen.getByRole('button', { name: 'Select all (3)' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Select all (3)' }));
  await user.click(screen.getByRole('combobox', { name: 'Data types' }));
  const listbox = await screen.findByRole('listbox');
  expect(
    within(listbox).getByText(DATA_TYPE_NOTES.activity_steps_intraday as string),
  ).toBeInTheDocument();
  await user.click(within(listbox).getByRole('option', { name: /^activity_steps_intraday/ }));
  await user.keyboard('{Escape}');
  await user.type(screen.getByLabelText('Start date'), '2026-11-01');
  await user.type(screen.getByLabelText('End date'), '2026-11-03');
}

describe('data export panel', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says at each field what is missing, focuses the first, and sends nothing', async () => {
    const { user, posted } = renderPanel();
    expect(await screen.findByText('No exports yet.')).toBeInTheDocument();
    // Both formats and the minute grid are on, raw JSON off, to begin with.
    expect(screen.getByRole('checkbox', { name: 'Parquet' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'CSV' })).toBeChecked();
    expect(
      screen.getByRole('checkbox', { name: 'Minute grid, zeros filled, with a worn flag' }),
    ).toBeChecked();
    expect(
      screen.getByRole('checkbox', { name: 'Include raw JSON from Google' }),
    ).not.toBeChecked();
    expect(
      screen.getByRole('checkbox', { name: 'Include raw JSON from Google' }),
    ).toHaveAccessibleDescription('The pages as Google sent them, beside the tidy files.');

    await user.click(screen.getByRole('checkbox', { name: 'Parquet' }));
    await user.click(screen.getByRole('checkbox', { name: 'CSV' }));
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    const participants = screen.getByRole('combobox', { name: 'Participants' });
    expect(participants).toHaveAccessibleDescription('Select at least one participant');
    expect(participants).toHaveFocus();
    expect(screen.getByRole('combobox', { name: 'Data types' })).toHaveAccessibleDescription(
      'Select at least one data type',
    );
    expect(screen.getByLabelText('End date')).toHaveAccessibleDescription(
      'Select a start date and an end date',
    );
    expect(screen.getByText('Select at least one format')).toBeInTheDocument();

    // An end before the start is said at once, in the server's own words.
    await user.type(screen.getByLabelText('Start date'), '2026-11-05');
    await user.type(screen.getByLabelText('End date'), '2026-11-01');
    expect(screen.getByLabelText('End date')).toHaveAccessibleDescription(
      'The end date must not be before the start date',
    );
    expect(posted()).toEqual([]);
  }, 20_000);

  it('starts the export with the form as the body, lists it and moves the focus to it', async () => {
    const started = summary({ status: 'queued', progress: { done: 0, total: 0, percent: 0 } });
    let listed: ExportSummary[] = [];
    const { user, posted } = renderPanel({
      routes: {
        [`GET ${LIST}`]: () => ({ body: { success: true, exports: listed } }),
        [`POST ${LIST}`]: () => {
          listed = [started];
          return { status: 201, body: { success: true, export: started } };
        },
      },
    });
    await fillForm(user);
    await user.click(screen.getByRole('checkbox', { name: 'CSV' }));
    await user.click(screen.getByRole('checkbox', { name: 'Include raw JSON from Google' }));
    await user.type(screen.getByLabelText('Name (optional)'), '  Pilot week ');
    await user.click(screen.getByRole('button', { name: 'Start export' }));

    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toEqual({
      name: 'Pilot week',
      participantIds: ['P0000000000000001', 'P0000000000000002', 'P0000000000000003'],
      dataTypes: ['activity_steps_intraday'],
      dateRange: { startDate: '2026-11-01', endDate: '2026-11-03' },
      formats: ['parquet'],
      minuteGrid: true,
      includeRaw: true,
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Export started: Pilot week');
    const heading = await screen.findByRole('heading', { level: 4, name: 'Pilot week' });
    await waitFor(() => expect(heading).toHaveFocus());
    const item = within(screen.getByTestId('export-item'));
    expect(item.getByText('queued')).toBeInTheDocument();
    expect(screen.getByLabelText('Name (optional)')).toHaveValue('');
  }, 20_000);

  it('shows the server’s answer when the start is refused', async () => {
    const { user } = renderPanel({
      routes: {
        [`POST ${LIST}`]: {
          status: 404,
          body: failure('Participant not found', 'PARTICIPANT_NOT_FOUND'),
        },
      },
    });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Participant not found');
  }, 20_000);

  it('follows a running export until it is completed, with its progress, gaps and then the ZIP', async () => {
    let reads = 0;
    renderPanel({
      routes: {
        [`GET ${LIST}`]: () => {
          reads += 1;
          // Both formats, as the server keeps them: sorted by name.
          const now =
            reads === 1
              ? summary({ missingPartitions: 3, formats: ['csv', 'parquet'] })
              : completed({ missingPartitions: 3, formats: ['csv', 'parquet'] });
          return { body: { success: true, exports: [now] } };
        },
      },
    });
    const item = within(await screen.findByTestId('export-item'));
    expect(item.getByRole('heading', { name: 'Pilot week' })).toBeInTheDocument();
    expect(item.getByText(/^Ada Lovelace · Nov 20, 2026/)).toBeInTheDocument();
    // In the form's order; each part kept whole (a day is never cut at its hyphens).
    expect(item.getByText('2 participants').parentElement).toHaveTextContent(
      /^2 participants · activity_steps_intraday · 2026-11-01 – 2026-11-03 · Parquet, CSV · minute grid · raw JSON$/,
    );
    expect(item.getByText('2026-11-01 – 2026-11-03')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(item.getByRole('progressbar', { name: 'Pilot week progress' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    expect(item.getByText('4 / 10 partitions (40 %)')).toBeInTheDocument();
    expect(
      item.getByText(/^3 partitions \(participant × type × day\) had no data/),
    ).toBeInTheDocument();
    expect(item.queryByRole('button', { name: /Download ZIP/ })).toBeNull();
    // Polled while running: the next read finds it completed.
    expect(
      await item.findByRole('button', { name: 'Download ZIP of Pilot week' }, { timeout: 5_000 }),
    ).toBeEnabled();
    expect(item.getByRole('progressbar', { name: 'Pilot week progress' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(item.getByText('completed')).toBeInTheDocument();
  }, 15_000);

  it('says why an export failed', async () => {
    renderPanel({
      exports: [summary({ status: 'failed', error: 'The bucket could not be written' })],
    });
    const item = within(await screen.findByTestId('export-item'));
    expect(item.getByText('failed')).toBeInTheDocument();
    expect(item.getByText('The bucket could not be written')).toBeInTheDocument();
    expect(item.queryByRole('button', { name: /Download ZIP/ })).toBeNull();
  });

  it('downloads the ZIP from the archive URL with the session’s Bearer token', async () => {
    storeSession();
    const { calls, user } = renderPanel({
      exports: [completed()],
      routes: { [`GET ${LIST}/${EXPORT_ID}/archive`]: { body: 'PK' } },
    });
    const createObjectURL = vi.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(`${this.download} ${this.href}`);
    });
    await user.click(await screen.findByRole('button', { name: 'Download ZIP of Pilot week' }));
    await waitFor(() => expect(saved).toEqual(['Pilot_week.zip blob:export']));
    const download = calls.find((c) => c.path === `${LIST}/${EXPORT_ID}/archive`);
    expect(download?.method).toBe('GET');
    expect(download?.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('opens the file list: path, size, rows and the start of the SHA-256', async () => {
    const { user } = renderPanel({
      exports: [completed()],
      routes: {
        [`GET ${LIST}/${EXPORT_ID}`]: {
          body: { success: true, export: completed(), files: FILES },
        },
      },
    });
    const toggle = await screen.findByRole('button', { name: 'Show files' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide files' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const table = await screen.findByRole('table', { name: 'Files of Pilot week' });
    const row = within(table)
      .getByText('parquet/activity_steps_intraday.parquet')
      .closest('tr') as HTMLElement;
    expect(within(row).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(row).getByText('4,320')).toBeInTheDocument();
    expect(within(row).getByText('ab12cd34ef56')).toHaveAttribute('title', FILES[0]?.sha256);
    const manifest = within(table).getByText('manifest.json').closest('tr') as HTMLElement;
    expect(within(manifest).getByText('—')).toBeInTheDocument();
  });

  it('fills the selection into the R and Python scripts, which read the token from WRP_TOKEN', async () => {
    const { user } = renderPanel();
    const scripts = within(await screen.findByRole('region', { name: 'Use from a script' }));
    expect(
      scripts.getByText(
        'Complete the selection above to fill the participants, data types and days into the scripts.',
      ),
    ).toBeInTheDocument();
    await fillForm(user);
    expect(scripts.queryByText(/^Complete the selection above/)).toBeNull();
    expect(scripts.getByText(/create one under Access tokens below/)).toBeInTheDocument();
    const r = scripts.getByRole('region', { name: 'R (httr2) script' });
    expect(r).toHaveTextContent(`base_url <- "${window.location.origin}"`);
    expect(r).toHaveTextContent('token <- Sys.getenv("WRP_TOKEN")');
    expect(r).toHaveTextContent('dataTypes = list("activity_steps_intraday")');
    await user.click(scripts.getByRole('button', { name: 'Python (requests)' }));
    const python = scripts.getByRole('region', { name: 'Python (requests) script' });
    expect(python).toHaveTextContent(`BASE_URL = "${window.location.origin}"`);
    expect(python).toHaveTextContent('os.environ["WRP_TOKEN"]');
    expect(python).toHaveTextContent(`api("POST", "${LIST}", json=body)`);
    expect(python).toHaveTextContent(
      '"dateRange": {"startDate": "2026-11-01", "endDate": "2026-11-03"}',
    );

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(scripts.getByRole('button', { name: 'Copy script' }));
    expect(writeText).toHaveBeenCalledWith(python.textContent);
    expect(await screen.findByText('Script copied to the clipboard')).toBeInTheDocument();
  }, 20_000);
});
