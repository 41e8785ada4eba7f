import type { AdherenceResponse, AdherenceRow, StudyStats } from '@research/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeRequest, type FakeRoute, installAccount } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';
import { makeStudy } from '../../test/study-fixtures';

const STUDY_ID = '00000000-0000-4000-8000-000000000001';
const BASE = `/api/studies/${STUDY_ID}`;
const NOW = new Date('2026-11-30T12:00:00.000Z');

const STATS: StudyStats = {
  participants: 3,
  pendingParticipants: 0,
  members: 1,
  emails: 0,
  authorizedParticipants: 2,
  lastEmailSentAt: null,
  atRisk: 1,
};

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); ) {
    days.push(new Date(at).toISOString().slice(0, 10));
    at += 86_400_000;
  }
  return days;
}

function row(
  overrides: Partial<AdherenceRow> & Pick<AdherenceRow, 'id' | 'participantId'>,
  count: number,
): AdherenceRow {
  return {
    name: null,
    enrolledAt: '2026-03-07T10:00:00.000Z',
    connection: 'connected',
    lastDeviceSyncAt: '2026-11-30T08:00:00.000Z',
    batteryLevel: 80,
    daysWithoutSync: 0,
    atRisk: false,
    validDays: count,
    eligibleDays: count,
    states: Array(count).fill('complete'),
    wearMinutes: Array(count).fill(14 * 60),
    steps: Array(count).fill(9000),
    reasons: {},
    ...overrides,
  };
}

/** Three participants over [from, to]: Grace at risk with a failed last day, Alan fine, Kay never connected. */
function adherenceAnswer(from: string, to: string): AdherenceResponse {
  const days = daysOf(from, to);
  const n = days.length;
  const graceStates = Array(n).fill('complete');
  graceStates[n - 1] = 'failed';
  graceStates[n - 2] = 'empty';
  const graceWear = Array(n).fill(672);
  graceWear[n - 1] = null;
  graceWear[n - 2] = 0;
  const graceSteps = Array(n).fill(8432);
  graceSteps[n - 1] = null;
  graceSteps[n - 2] = 0;
  return {
    success: true,
    from,
    to,
    days,
    rule: { validDayMinHours: 10, riskNoSyncDays: 2 },
    summary: { enrolled: 3, connected: 2, atRisk: 1, validDayPercent: 64.3 },
    participants: [
      row(
        {
          id: 'p-alan',
          participantId: 'P0000000000000002',
          name: 'Alan Turing',
          batteryLevel: null,
        },
        n,
      ),
      row(
        {
          id: 'p-grace',
          participantId: 'P0000000000000001',
          name: 'Grace Hopper',
          lastDeviceSyncAt: '2026-11-27T08:00:00.000Z',
          daysWithoutSync: 3,
          atRisk: true,
          validDays: n - 2,
          states: graceStates,
          wearMinutes: graceWear,
          steps: graceSteps,
          reasons: { [String(n - 1)]: 'Google answered 503' },
        },
        n,
      ),
      row(
        {
          id: 'p-kay',
          participantId: 'P0000000000000003',
          name: 'Kay McNulty',
          connection: 'not_connected',
          lastDeviceSyncAt: null,
          batteryLevel: null,
          daysWithoutSync: null,
          validDays: 0,
          eligibleDays: n,
          states: Array(n).fill('not_collected'),
          wearMinutes: Array(n).fill(null),
          steps: Array(n).fill(null),
        },
        n,
      ),
    ],
  };
}

function routes(extra: Record<string, FakeRoute> = {}): Record<string, FakeRoute> {
  return {
    [`GET ${BASE}`]: { body: { success: true, study: makeStudy() } },
    [`GET ${BASE}/stats`]: { body: { success: true, stats: STATS } },
    [`GET ${BASE}/adherence`]: (request: FakeRequest) => ({
      body: adherenceAnswer(request.query.get('from') ?? '', request.query.get('to') ?? ''),
    }),
    [`GET ${BASE}/digest`]: { body: { success: true, enabled: false } },
    [`PUT ${BASE}/digest`]: (request: FakeRequest) => ({
      body: { success: true, enabled: (request.body as { enabled: boolean }).enabled },
    }),
    ...extra,
  };
}

async function openTab(extra: Record<string, FakeRoute> = {}) {
  const api = installAccount('approved', routes(extra));
  const view = renderRoute(`/researcher/study/${STUDY_ID}?tab=5`);
  await screen.findByRole(
    'grid',
    { name: 'Adherence by participant and day' },
    { timeout: 10_000 },
  );
  return { ...api, ...view, user: userEvent.setup({ delay: null }) };
}

const adherenceCalls = (calls: FakeRequest[]) =>
  calls.filter((call) => call.path === `${BASE}/adherence`).map((call) => call.search);

const rowHeaders = () =>
  within(screen.getByRole('grid'))
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('Adherence tab', { timeout: 30_000 }, () => {
  beforeEach(() => {
    // Only the clock: the last 28 days end on Nov 30.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the last 28 days and shows the summary, the counts, the rows and the table', async () => {
    const { calls } = await openTab();
    expect(adherenceCalls(calls)).toEqual(['?from=2026-11-03&to=2026-11-30']);
    expect(screen.getByRole('tab', { name: 'Adherence (1)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(
      screen.getByRole('heading', {
        name: '3 enrolled · 2 connected · 1 at risk · 64 % valid days',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('Nov 3 – Nov 30 (28 days)')).toBeInTheDocument();
    // Lowest adherence first: Kay (0 / 28), Grace (26 / 28), Alan (28 / 28).
    expect(rowHeaders()).toEqual(['Kay McNulty', 'Grace Hopper', 'Alan Turing']);
    const grid = screen.getByRole('grid');
    expect(within(grid).getByRole('gridcell', { name: 'Nov 28: 11.2 h worn' })).toBeInTheDocument();
    expect(within(grid).getByRole('gridcell', { name: 'Nov 29: not worn' })).toBeInTheDocument();
    expect(
      within(grid).getByRole('gridcell', { name: 'Nov 30: fetch failed — Google answered 503' }),
    ).toBeInTheDocument();

    // The table follows the map (a deferred render).
    const table = await screen.findByRole('table', { name: 'Participants’ adherence' });
    const grace = await within(table).findByRole('row', { name: /Grace Hopper/ });
    expect(within(grace).getByText('26 / 28')).toBeInTheDocument();
    expect(within(grace).getByText('At risk')).toBeInTheDocument();
    expect(within(grace).getByText('80 %')).toBeInTheDocument();
    expect(within(grace).getByText('3 days ago')).toBeInTheDocument();
    const alan = within(table).getByRole('row', { name: /Alan Turing/ });
    expect(within(alan).getByText('Not reported')).toBeInTheDocument();
    expect(within(alan).getByText('On track')).toBeInTheDocument();
    const kay = within(table).getByRole('row', { name: /Kay McNulty/ });
    expect(within(kay).getByText('Not connected')).toBeInTheDocument();
    expect(within(kay).getByText('Never')).toBeInTheDocument();
  });

  it('switches the map between wear time, steps and sync state', async () => {
    const { user } = await openTab();
    const grid = screen.getByRole('grid');
    expect(within(grid).getByRole('gridcell', { name: 'Nov 28: 11.2 h worn' })).toBeInTheDocument();
    expect(screen.getByText('10 h or more (valid day)')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Steps' }));
    expect(within(grid).getByRole('gridcell', { name: 'Nov 28: 8,432 steps' })).toBeInTheDocument();
    expect(screen.getByText('10,000 or more')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sync state' }));
    expect(within(grid).getAllByRole('gridcell', { name: 'Nov 28: complete' })).toHaveLength(2);
    // Failed and missing days say so in every metric.
    expect(
      within(grid).getByRole('gridcell', { name: 'Nov 30: fetch failed — Google answered 503' }),
    ).toBeInTheDocument();
    expect(
      within(grid).getAllByRole('gridcell', { name: 'Nov 30: not collected yet' }),
    ).toHaveLength(1);
  });

  it('filters by state, searches by name or id and sorts', async () => {
    const { user } = await openTab();
    const table = () => screen.getByRole('table', { name: 'Participants’ adherence' });

    await user.click(screen.getByRole('combobox', { name: 'Participants' }));
    await user.click(await screen.findByRole('option', { name: 'At risk' }));
    expect(rowHeaders()).toEqual(['Grace Hopper']);
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(2));
    expect(screen.getByText('1 of 3 participants')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Participants' }));
    await user.click(await screen.findByRole('option', { name: 'Not connected' }));
    expect(rowHeaders()).toEqual(['Kay McNulty']);

    await user.click(screen.getByRole('combobox', { name: 'Participants' }));
    await user.click(await screen.findByRole('option', { name: 'All' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or ID' }), '0002');
    expect(rowHeaders()).toEqual(['Alan Turing']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name or ID' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or ID' }), 'hop');
    expect(rowHeaders()).toEqual(['Grace Hopper']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name or ID' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or ID' }), 'nobody');
    expect(screen.getByText('No participants match the filter or search.')).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name or ID' }));

    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Adherence, highest first' }));
    expect(rowHeaders()).toEqual(['Alan Turing', 'Grace Hopper', 'Kay McNulty']);
    await waitFor(() =>
      expect(
        within(table())
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual(['Alan Turing', 'Grace Hopper', 'Kay McNulty']),
    );
  });

  it('spells out a day’s reason on focus, on the arrow keys, on a tap and on hover', async () => {
    const { user } = await openTab();
    const grid = screen.getByRole('grid');
    const details = screen.getByTestId('heat-map-details');
    const failed = within(grid).getByRole('gridcell', {
      name: 'Nov 30: fetch failed — Google answered 503',
    });
    // One tab stop in the whole grid.
    const stops = grid.querySelectorAll('[tabindex="0"]');
    expect(stops).toHaveLength(1);

    await user.click(failed);
    expect(failed).toHaveFocus();
    expect(details).toHaveTextContent('Grace Hopper · Nov 30: fetch failed — Google answered 503');

    await user.keyboard('{ArrowLeft}');
    expect(within(grid).getByRole('gridcell', { name: 'Nov 29: not worn' })).toHaveFocus();
    expect(details).toHaveTextContent('Grace Hopper · Nov 29: not worn');
    expect(grid.querySelectorAll('[tabindex="0"]')).toHaveLength(1);

    await user.keyboard('{ArrowDown}');
    expect(details).toHaveTextContent('Alan Turing · Nov 29: 14.0 h worn');

    await user.keyboard('{Home}');
    expect(within(grid).getByRole('link', { name: /Alan Turing/ })).toHaveFocus();

    fireEvent.mouseOver(failed);
    expect(details).toHaveTextContent('Grace Hopper · Nov 30: fetch failed — Google answered 503');
  });

  it('asks for 90 days, the whole study or custom dates', async () => {
    const { user, calls } = await openTab();
    await user.click(screen.getByRole('button', { name: '90 days' }));
    await waitFor(() => expect(adherenceCalls(calls)).toContain('?from=2026-09-02&to=2026-11-30'));
    await screen.findByText('Sep 2 – Nov 30 (90 days)');

    await user.click(screen.getByRole('button', { name: 'Whole study' }));
    // The study was created on Mar 5.
    await waitFor(() => expect(adherenceCalls(calls)).toContain('?from=2026-03-05&to=2026-11-30'));

    await user.click(screen.getByRole('button', { name: 'Custom' }));
    const from = screen.getByLabelText('From');
    fireEvent.change(from, { target: { value: '2026-11-20' } });
    await waitFor(() => expect(adherenceCalls(calls)).toContain('?from=2026-11-20&to=2026-11-30'));
    fireEvent.change(from, { target: { value: '2026-12-20' } });
    expect(await screen.findByText('The start comes after the end.')).toBeInTheDocument();
    expect(adherenceCalls(calls).at(-1)).toBe('?from=2026-11-20&to=2026-11-30');
  });

  it('turns the daily digest on for the member', async () => {
    const { user, calls } = await openTab();
    const digest = await screen.findByRole('switch', { name: 'E-mail me a daily digest' });
    await waitFor(() => expect(digest).toBeEnabled());
    expect(digest).not.toBeChecked();
    await user.click(digest);
    await waitFor(() => expect(digest).toBeChecked());
    const put = calls.find((call) => call.method === 'PUT' && call.path === `${BASE}/digest`);
    expect(put?.body).toEqual({ enabled: true });
  });

  it('opens a participant’s charts from the table', async () => {
    const { user, router } = await openTab({
      'GET /api/participants/p-grace/info': {
        status: 404,
        body: {
          success: false,
          error: 'Participant not found',
          message: 'Participant not found',
          code: 'PARTICIPANT_NOT_FOUND',
        },
      },
    });
    const table = await screen.findByRole('table', { name: 'Participants’ adherence' });
    await user.click(
      await within(table).findByRole('link', { name: 'Open charts of Grace Hopper' }),
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/researcher/study/${STUDY_ID}/participant/p-grace`,
      ),
    );
  });
});
