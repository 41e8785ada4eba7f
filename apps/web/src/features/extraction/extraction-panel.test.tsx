import {
  EXTRACTION_MESSAGES,
  EXTRACTION_STALLED_REASON,
  type ExtractionJob,
  GOOGLE_HEALTH_READ_SCOPES,
} from '@research/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, installFakeApi } from '../../test/fake-api';
import { makeAuthorizationRow } from '../../test/study-fixtures';
import { ExtractionPanel } from './extraction-panel';

const [ACTIVITY] = GOOGLE_HEALTH_READ_SCOPES;

const row = makeAuthorizationRow;

const job = (over: Partial<ExtractionJob>): ExtractionJob => ({
  id: 'a0000000-0000-4000-8000-000000000001',
  runId: 'b0000000-0000-4000-8000-000000000001',
  participantId: 'P0000000000000001',
  participantName: 'Florence Nightingale',
  extractionName: 'Extraction_2026-11-20_1participants',
  dataTypes: ['profile'],
  dateRange: { startDate: '2026-11-20', endDate: '2026-11-20', mode: 'single' },
  status: 'running',
  progress: 40,
  callsPlanned: 5,
  callsDone: 2,
  createdAt: '2026-11-20T10:00:00.000Z',
  completedAt: null,
  error: null,
  skippedDataTypes: [],
  ...over,
});

const RUN_ID = 'b0000000-0000-4000-8000-000000000002';

function renderPanel(
  options: {
    jobs?: ExtractionJob[];
    routes?: Record<string, FakeRoute>;
    rows?: ReturnType<typeof row>[];
  } = {},
) {
  const notify = vi.fn();
  const rows = options.rows ?? [
    row({}),
    row({
      id: 'P0000000000000002',
      participantId: 'P0000000000000002',
      name: 'Mary Seacole',
      grantedScopes: [ACTIVITY ?? ''],
    }),
    row({
      id: 'P0000000000000003',
      participantId: 'P0000000000000003',
      name: 'Ada Lovelace',
      authorizationStatus: false,
      status: null,
      grantedScopes: [],
    }),
  ];
  const { calls } = installFakeApi({
    'GET /api/studies/s-1/wearable-authorizations': {
      body: { success: true, authorizations: rows, totalCount: rows.length },
    },
    'GET /api/studies/s-1/extraction-jobs': { body: { success: true, jobs: options.jobs ?? [] } },
    // The server's plan of the selection: 2 calls a participant, a few seconds.
    'POST /api/studies/s-1/extraction-estimate': (request) => ({
      body: {
        success: true,
        calls: 2 * (request.body as { participantIds: string[] }).participantIds.length,
        seconds: { min: 1.2, max: 5.5 },
      },
    }),
    'POST /api/data-extraction/extract-participant-data': {
      body: {
        success: true,
        runId: RUN_ID,
        bucket: 'b',
        prefix: `extractions/${RUN_ID}/`,
        callsPlanned: 6,
        jobs: [],
      },
    },
    ...options.routes,
  });
  const estimates = () =>
    calls
      .filter((c) => c.method === 'POST' && c.path === '/api/studies/s-1/extraction-estimate')
      .map((c) => c.body);
  const posted = () =>
    calls
      .filter(
        (c) => c.method === 'POST' && c.path === '/api/data-extraction/extract-participant-data',
      )
      .map((c) => c.body);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ExtractionPanel studyId="s-1" signedIn notify={notify} />
    </QueryClientProvider>,
  );
  return { posted, estimates, notify };
}

describe('data extraction panel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts disabled at 0 calls; "Select all connected" takes only connected participants; shows what a grant cannot give', async () => {
    const user = userEvent.setup();
    renderPanel();
    const startButton = screen.getByRole('button', { name: 'Start Extraction' });
    expect(startButton).toBeDisabled();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Select all connected (2)' })).toBeEnabled(),
    );
    await user.click(screen.getByRole('button', { name: 'Select all connected (2)' }));
    expect(screen.getByText('Florence Nightingale (florence@example.test)')).toBeInTheDocument();
    expect(screen.getByText(/^Mary Seacole \(/)).toBeInTheDocument();
    expect(screen.queryByText(/^Ada Lovelace/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Participants' }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByText(/Cannot give: .*sleep_log/)).toBeInTheDocument();
    expect(within(listbox).getByText(/· not authorized$/)).toBeInTheDocument();
    // Opening the participant list renders every option: slow on a busy machine.
  }, 15_000);

  it('the picker shows each participant’s e-mail and finds them by name, e-mail or id', async () => {
    const user = userEvent.setup();
    const bea = (n: number, over: Partial<ReturnType<typeof row>> = {}) =>
      row({
        id: `P00000000000000b${n}`,
        participantId: `P00000000000000b${n}`,
        name: 'Bea Desk',
        email: `bea${n}@example.test`,
        ...over,
      });
    renderPanel({ rows: [bea(1), bea(2), bea(3), bea(4, { authorizationStatus: false })] });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Select all connected (3)' })).toBeEnabled(),
    );
    const picker = screen.getByRole('combobox', { name: 'Participants' });
    await user.click(picker);
    let listbox = await screen.findByRole('listbox');
    // Three of the same name, told apart by their e-mail and id.
    for (const n of [1, 2, 3]) {
      expect(
        within(listbox).getByText(`bea${n}@example.test · P00000000000000b${n}`),
      ).toBeInTheDocument();
    }
    await user.type(picker, 'bea2@');
    listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option')).toHaveLength(1);
    await user.click(within(listbox).getByRole('option', { name: /bea2@example\.test/ }));
    await user.clear(picker);
    await user.type(picker, '00b3');
    listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option')).toHaveLength(1);
    await user.click(within(listbox).getByRole('option', { name: /bea3@example\.test/ }));
    await user.keyboard('{Escape}');
    // The chosen ones read with their e-mail too.
    expect(screen.getByText('Bea Desk (bea2@example.test)')).toBeInTheDocument();
    expect(screen.getByText('Bea Desk (bea3@example.test)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select all connected (3)' }));
    expect(screen.getByText('Bea Desk (bea1@example.test)')).toBeInTheDocument();
    expect(screen.queryByText('Bea Desk (bea4@example.test)')).toBeNull();
  }, 20_000);

  it('names the run (default name, required) and posts one request for all participants', async () => {
    const user = userEvent.setup();
    const { posted } = renderPanel();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Select all connected (2)' })).toBeEnabled(),
    );
    await user.click(screen.getByRole('button', { name: 'Select all connected (2)' }));
    await user.click(screen.getByRole('button', { name: 'Date Range' }));
    await user.type(screen.getByLabelText('Start date'), '2026-11-01');
    await user.type(screen.getByLabelText('End date'), '2026-11-03');
    // The server's estimate, not participants × types × days.
    await waitFor(() =>
      expect(screen.getByText('Estimated API calls').nextSibling).toHaveTextContent('4'),
    );
    await user.click(screen.getByRole('button', { name: 'Start Extraction' }));
    const dialog = await screen.findByRole('dialog', { name: 'Name Your Extraction' });
    const name = within(dialog).getByLabelText('Extraction name');
    expect((name as HTMLInputElement).value).toMatch(
      /^Extraction_\d{4}-\d{2}-\d{2}_2participants$/,
    );
    await user.clear(name);
    await user.type(name, '   ');
    expect(within(dialog).getByRole('button', { name: 'Start Extraction' })).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Pilot week');
    await user.click(within(dialog).getByRole('button', { name: 'Start Extraction' }));
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toEqual({
      participantIds: ['P0000000000000001', 'P0000000000000002'],
      dataTypes: ['profile'],
      extractionName: 'Pilot week',
      dateRange: { startDate: '2026-11-01', endDate: '2026-11-03', mode: 'range' },
    });
    // Typing dates and a name takes a while on a busy machine.
  }, 15_000);

  it('estimates from the server’s plan and quotas: calls and time in seconds, not the old minutes', async () => {
    const user = userEvent.setup();
    const { estimates } = renderPanel();
    const summary = () => screen.getByText('Estimated time').nextSibling;
    expect(summary()).toHaveTextContent('—');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Select all connected (2)' })).toBeEnabled(),
    );
    await user.click(screen.getByRole('button', { name: 'Select all connected (2)' }));
    // No date yet: nothing to estimate, nothing asked.
    expect(estimates()).toEqual([]);
    await user.type(screen.getByLabelText('Date'), '2026-11-05');
    await waitFor(() => expect(summary()).toHaveTextContent('1–6 seconds'));
    expect(screen.getByText('Estimated API calls').nextSibling).toHaveTextContent('4');
    expect(screen.queryByText(/minutes/)).toBeNull();
    expect(estimates().at(-1)).toEqual({
      participantIds: ['P0000000000000001', 'P0000000000000002'],
      dataTypes: ['profile'],
      dateRange: { startDate: '2026-11-05', endDate: '2026-11-05', mode: 'single' },
    });
  }, 15_000);

  it('says which input is missing', async () => {
    const user = userEvent.setup();
    const { notify } = renderPanel();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Select all connected (2)' })).toBeEnabled(),
    );
    await user.click(screen.getByRole('button', { name: 'Select all connected (2)' }));
    await user.click(screen.getByRole('button', { name: 'Date Range' }));
    await user.type(screen.getByLabelText('Start date'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Start Extraction' }));
    expect(notify).toHaveBeenCalledWith(
      'error',
      'Validation Error',
      EXTRACTION_MESSAGES.selectBothDates,
    );
  });

  it('says at the end date when it is before the start date or the range is too long', async () => {
    const user = userEvent.setup();
    const { notify } = renderPanel();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Select all connected (2)' })).toBeEnabled(),
    );
    await user.click(screen.getByRole('button', { name: 'Select all connected (2)' }));
    await user.click(screen.getByRole('button', { name: 'Date Range' }));
    await user.type(screen.getByLabelText('Start date'), '2026-11-05');
    await user.type(screen.getByLabelText('End date'), '2026-11-01');
    expect(screen.getByLabelText('End date')).toHaveAccessibleDescription(
      'The end date must not be before the start date',
    );
    expect(screen.getByLabelText('End date')).toBeInvalid();
    await user.clear(screen.getByLabelText('Start date'));
    await user.type(screen.getByLabelText('Start date'), '2025-01-01');
    expect(screen.getByLabelText('End date')).toHaveAccessibleDescription(
      'The date range must not be longer than 366 days',
    );
    await user.click(screen.getByRole('button', { name: 'Start Extraction' }));
    expect(notify).toHaveBeenCalledWith(
      'error',
      'Validation Error',
      'The date range must not be longer than 366 days',
    );
    await user.clear(screen.getByLabelText('Start date'));
    await user.type(screen.getByLabelText('Start date'), '2026-10-30');
    expect(screen.getByLabelText('End date')).not.toHaveAccessibleDescription();
  }, 20_000);

  it('lists jobs with a cut name, determinate progress with calls, and the error of a failed one', async () => {
    renderPanel({
      jobs: [
        job({}),
        job({
          id: 'a0000000-0000-4000-8000-000000000002',
          status: 'failed',
          progress: 100,
          error: 'The participant’s Google connection needs to be renewed.',
        }),
      ],
    });
    const items = await screen.findAllByTestId('extraction-job');
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByText('Extraction...')).toBeInTheDocument();
    expect(within(items[0] as HTMLElement).getByText('2 / 5 calls')).toBeInTheDocument();
    expect(within(items[0] as HTMLElement).getByRole('progressbar')).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    expect(
      within(items[1] as HTMLElement).getByText(
        'The participant’s Google connection needs to be renewed.',
      ),
    ).toBeInTheDocument();
    // A job is running: no second start meanwhile.
    expect(screen.getByRole('button', { name: 'Start Extraction' })).toBeDisabled();
  });

  it('shows a completed job that skipped unshared types as completed with gaps, naming them', async () => {
    renderPanel({
      jobs: [
        job({
          status: 'completed',
          progress: 100,
          dataTypes: ['activity_summary', 'sleep_log'],
          skippedDataTypes: ['sleep_log'],
        }),
      ],
    });
    const [item] = await screen.findAllByTestId('extraction-job');
    const inItem = within(item as HTMLElement);
    expect(inItem.getByText('completed with gaps')).toBeInTheDocument();
    expect(inItem.queryByText('completed')).not.toBeInTheDocument();
    expect(
      inItem.getByText('Not collected because the participant did not share it: sleep_log.'),
    ).toBeInTheDocument();
  });

  it('shows a stalled job as stalled, with the reason, while another worker takes it over', async () => {
    renderPanel({
      jobs: [job({ status: 'stalled', error: EXTRACTION_STALLED_REASON })],
    });
    const [item] = await screen.findAllByTestId('extraction-job');
    expect(within(item as HTMLElement).getByText('stalled')).toBeInTheDocument();
    expect(within(item as HTMLElement).getByText(EXTRACTION_STALLED_REASON)).toBeInTheDocument();
    // Still under way: no second start meanwhile.
    expect(screen.getByRole('button', { name: 'Start Extraction' })).toBeDisabled();
  });

  it('keeps asking for the run’s files after the job finished, until the run has written them', async () => {
    const user = userEvent.setup();
    const done = job({
      status: 'completed',
      progress: 100,
      callsDone: 5,
      completedAt: '2026-11-20T10:01:00.000Z',
    });
    let detailCalls = 0;
    renderPanel({
      jobs: [done],
      routes: {
        [`GET /api/studies/s-1/extraction-jobs/${done.id}`]: () => {
          detailCalls += 1;
          // The job is done, but the run writes its files once every job of it has finished.
          const runFiles = detailCalls === 1 ? [] : [`extractions/${done.runId}/manifest.json`];
          return { body: { success: true, job: done, tasks: [], runFiles } };
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Detail' }));
    const details = await screen.findByRole('dialog', { name: 'Extraction Details' });
    expect(
      await within(details).findByText(
        'The CSV files, data dictionary and manifest are written when every job has finished.',
      ),
    ).toBeInTheDocument();
    expect(
      await within(details).findByText('manifest.json', {}, { timeout: 5_000 }),
    ).toBeInTheDocument();
  }, 15_000);
});
