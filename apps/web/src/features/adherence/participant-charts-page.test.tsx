import type {
  HeartRateDayResponse,
  ParticipantChartsResponse,
  ParticipantDetails,
} from '@research/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeRequest, installAccount } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';
import { makeStudy } from '../../test/study-fixtures';
import { localHourTicks } from './components/participant-charts';

const STUDY_ID = '00000000-0000-4000-8000-000000000001';
const PARTICIPANT = 'P0000000000000001';
const NOW = new Date('2026-11-30T12:00:00.000Z');

const DETAILS: ParticipantDetails = {
  participantId: PARTICIPANT,
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.test',
  phoneNumber: null,
  studyCode: 'ABC234',
  status: 'enrolled',
  informationCompleted: true,
  enrolledAt: '2026-03-07T10:00:00.000Z',
  authorizedAt: null,
  informationCompletedAt: null,
  additionalInfo: null,
  documents: [],
};

function charts(from: string, to: string): ParticipantChartsResponse {
  return {
    success: true,
    from,
    to,
    timeZone: 'America/New_York',
    days: [
      {
        date: '2026-11-29',
        state: 'complete',
        steps: 8432,
        restingHeartRateBpm: 61,
        wearMinutes: 850,
        sleepMinutes: 430,
        sleepStages: { deep: 80, light: 250, rem: 70, awake: 30, asleep: 0 },
      },
      {
        date: '2026-11-30',
        state: 'not_collected',
        steps: null,
        restingHeartRateBpm: null,
        wearMinutes: null,
        sleepMinutes: null,
        sleepStages: null,
      },
    ],
  };
}

function heartRate(date: string): HeartRateDayResponse {
  const start = Date.parse(`${date}T05:00:00Z`);
  return {
    success: true,
    date,
    timeZone: 'America/New_York',
    sampleCount: 28_912,
    downsampling: 'lttb',
    times: Array.from({ length: 2000 }, (_, i) => start + i * 43_000),
    bpm: Array.from({ length: 2000 }, (_, i) => 60 + (i % 40)),
  };
}

describe('Participant charts page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    // jsdom has no layout: the charts measure their box with it.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the participant, the range’s charts and the chosen day’s heart rate with the downsampling note', async () => {
    const { calls } = installAccount('approved', {
      [`GET /api/studies/${STUDY_ID}`]: { body: { success: true, study: makeStudy() } },
      [`GET /api/participants/${PARTICIPANT}/info`]: {
        body: { success: true, participant: DETAILS },
      },
      [`GET /api/participants/${PARTICIPANT}/charts`]: (request: FakeRequest) => ({
        body: charts(request.query.get('from') ?? '', request.query.get('to') ?? ''),
      }),
      [`GET /api/participants/${PARTICIPANT}/heart-rate`]: (request: FakeRequest) => ({
        body: heartRate(request.query.get('date') ?? ''),
      }),
    });
    renderRoute(`/researcher/study/${STUDY_ID}/participant/${PARTICIPANT}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'Daily steps' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    for (const name of [
      'Resting heart rate (bpm)',
      'Sleep by stage (hours)',
      'Wear time (hours with heart-rate data)',
      'Heart rate of one day',
    ]) {
      expect(screen.getByRole('heading', { name })).toBeInTheDocument();
    }
    expect(
      screen.getByText('Daily steps, Nov 3 – Nov 30: 1 day with data, average 8,432.'),
    ).toBeInTheDocument();
    // The latest day with data is the heart-rate chart's day.
    expect(
      await screen.findByText(/Downsampled from 28,912 samples to 2,000 points/, undefined, {
        timeout: 10_000,
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Times in the participant’s time zone: America\/New_York/),
    ).toBeInTheDocument();
    const asked = calls.filter((c) => c.path.endsWith('/charts') || c.path.endsWith('/heart-rate'));
    expect(asked.map((c) => `${c.path.split('/').at(-1)}${c.search}`)).toEqual([
      'charts?from=2026-11-03&to=2026-11-30',
      'heart-rate?date=2026-11-29',
    ]);

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: '90 days' }));
    await waitFor(() =>
      expect(calls.some((c) => c.search === '?from=2026-09-02&to=2026-11-30')).toBe(true),
    );
    expect(screen.getByRole('link', { name: 'Back to study' })).toHaveAttribute(
      'href',
      `/researcher/study/${STUDY_ID}?tab=5`,
    );
  });

  it('says a chart has no data in the range rather than drawing empty axes', async () => {
    const empty = (from: string, to: string): ParticipantChartsResponse => ({
      ...charts(from, to),
      days: charts(from, to).days.map((day) => ({
        ...day,
        state: 'not_collected',
        steps: null,
        restingHeartRateBpm: null,
        wearMinutes: null,
        sleepMinutes: null,
        sleepStages: null,
      })),
    });
    installAccount('approved', {
      [`GET /api/studies/${STUDY_ID}`]: { body: { success: true, study: makeStudy() } },
      [`GET /api/participants/${PARTICIPANT}/info`]: {
        body: { success: true, participant: DETAILS },
      },
      [`GET /api/participants/${PARTICIPANT}/charts`]: (request: FakeRequest) => ({
        body: empty(request.query.get('from') ?? '', request.query.get('to') ?? ''),
      }),
      [`GET /api/participants/${PARTICIPANT}/heart-rate`]: (request: FakeRequest) => ({
        body: { ...heartRate(request.query.get('date') ?? ''), sampleCount: 0, times: [], bpm: [] },
      }),
    });
    renderRoute(`/researcher/study/${STUDY_ID}/participant/${PARTICIPANT}`);
    const steps = await screen.findByRole('figure', { name: 'Daily steps' }, { timeout: 10_000 });
    expect(steps).toHaveTextContent('Daily steps, Nov 3 – Nov 30: 0 days with data.');
    for (const name of [
      'Daily steps',
      'Resting heart rate (bpm)',
      'Sleep by stage (hours)',
      'Wear time (hours with heart-rate data)',
    ]) {
      const figure = screen.getByRole('figure', { name });
      expect(within(figure).getByText('No data in this range yet.')).toBeInTheDocument();
      expect(figure.querySelector('svg')).toBeNull();
    }
  });
});

describe('localHourTicks', () => {
  it('puts ticks on the local whole hours, also across a DST change', () => {
    // Nov 1 2026 in New York: 25 hours, 01:00 twice.
    const start = Date.parse('2026-11-01T04:00:00Z');
    const end = Date.parse('2026-11-02T05:00:00Z');
    const ticks = localHourTicks([start, end], 'America/New_York', 3);
    const clock = new Intl.DateTimeFormat('en-US', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: 'America/New_York',
    });
    expect(ticks.map((t) => clock.format(t))).toEqual([
      '00:00',
      '03:00',
      '06:00',
      '09:00',
      '12:00',
      '15:00',
      '18:00',
      '21:00',
      '00:00',
    ]);
    // Between 00:00 and 03:00 local there are four hours that day.
    expect((ticks[1] ?? 0) - (ticks[0] ?? 0)).toBe(4 * 3_600_000);
    // A zone half an hour off UTC still gets whole local hours.
    const india = localHourTicks(
      [Date.parse('2026-11-01T00:00:00Z'), Date.parse('2026-11-01T12:00:00Z')],
      'Asia/Kolkata',
      3,
    );
    expect(india.every((t) => new Date(t).getUTCMinutes() === 30)).toBe(true);
  });
});
