import {
  type CollectedDay,
  type ParticipantRow,
  STUDY_PARTICIPANT_TEXTS,
  type StudyStats,
  syncedAt,
} from '@research/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LastSynced, LatestDay } from '../../../components/device-sync-cells';
import { installAccount } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';
import { makeStudy } from '../../../test/study-fixtures';
import { PARTICIPANTS_REFETCH_MS } from '../api/get-participants';

const DAY: CollectedDay = {
  date: '2026-11-25',
  partial: false,
  steps: 8432,
  wearMinutes: 852,
  restingHeartRateBpm: 61.4,
  sleepMinutes: 430,
};

describe('the device sync cells', () => {
  it('says Never while the device has not been heard of', () => {
    render(<LastSynced at={null} />);
    expect(screen.getByText('Never')).toBeInTheDocument();
  });

  it('says how long ago the device synced, with the exact time in its title', () => {
    const at = new Date(Date.now() - 12 * 60_000 - 5_000).toISOString();
    render(<LastSynced at={at} />);
    const time = screen.getByText('12 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('dateTime', at);
    expect(time).toHaveAttribute('title', syncedAt(at));
  });

  it("shows the latest day's figures on one line", () => {
    render(<LatestDay day={DAY} />);
    const line = screen.getByText('Nov 25: 8,432 steps · 14.2 h worn · RHR 61 · 7 h 10 min sleep');
    // A narrow cell breaks the line between figures only.
    expect(line.textContent).toContain('14.2\u00a0h\u00a0worn\u00a0· RHR\u00a061');
  });

  it('says a day still growing is so far, and leaves out the figures it has not got', () => {
    render(
      <LatestDay
        day={{
          ...DAY,
          partial: true,
          restingHeartRateBpm: null,
          sleepMinutes: null,
          wearMinutes: 45,
        }}
      />,
    );
    expect(screen.getByText('Nov 25 (so far): 8,432 steps · 45 min worn')).toBeInTheDocument();
  });

  it('says No data yet before any day was collected', () => {
    render(<LatestDay day={null} />);
    expect(screen.getByText('No data yet')).toBeInTheDocument();
  });
});

const STUDY_ID = '00000000-0000-4000-8000-000000000001';
const BASE = `/api/studies/${STUDY_ID}`;
const STATS: StudyStats = {
  participants: 2,
  pendingParticipants: 0,
  members: 1,
  emails: 0,
  authorizedParticipants: 2,
  atRisk: 0,
  lastEmailSentAt: null,
};

function participant(id: string, overrides: Partial<ParticipantRow>): ParticipantRow {
  return {
    id,
    participantId: id,
    firstName: 'Grace',
    lastName: id,
    participantEmail: `${id.toLowerCase()}@example.test`,
    phoneNumber: null,
    status: 'enrolled',
    enrolledAt: '2026-11-20T10:00:00.000Z',
    authorizationStatus: true,
    hasAccessToken: true,
    tokenExpiresAt: null,
    fitbitUserId: null,
    displayStatus: 'active',
    lastDeviceSyncAt: null,
    latestDay: null,
    ...overrides,
  };
}

describe('the Participants tab', () => {
  it("shows each participant's last sync and latest day", async () => {
    const synced = new Date(Date.now() - 3 * 3_600_000).toISOString();
    installAccount('approved', {
      [`GET ${BASE}`]: { body: { success: true, study: makeStudy() } },
      [`GET ${BASE}/stats`]: { body: { success: true, stats: STATS } },
      [`GET ${BASE}/participants`]: {
        body: {
          success: true,
          participants: [
            participant('PSYNCED', { lastDeviceSyncAt: synced, latestDay: DAY }),
            participant('PQUIET', {}),
          ],
          totalCount: 2,
        },
      },
    });
    renderRoute(`/researcher/study/${STUDY_ID}`);
    const table = await screen.findByRole(
      'table',
      { name: STUDY_PARTICIPANT_TEXTS.tableLabel },
      { timeout: 10_000 },
    );
    expect(within(table).getByRole('columnheader', { name: 'Last synced' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Latest day' })).toBeInTheDocument();

    const [, syncedRow, quietRow] = within(table).getAllByRole('row');
    expect(within(syncedRow as HTMLElement).getByText('3 hours ago')).toHaveAttribute(
      'title',
      syncedAt(synced),
    );
    expect(
      within(syncedRow as HTMLElement).getByText(
        'Nov 25: 8,432 steps · 14.2 h worn · RHR 61 · 7 h 10 min sleep',
      ),
    ).toBeInTheDocument();
    expect(within(quietRow as HTMLElement).getByText('Never')).toBeInTheDocument();
    expect(within(quietRow as HTMLElement).getByText('No data yet')).toBeInTheDocument();
  });

  it('asks again by itself while open, so a sync shows without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let synced = false;
      const api = installAccount('approved', {
        [`GET ${BASE}`]: { body: { success: true, study: makeStudy() } },
        [`GET ${BASE}/stats`]: { body: { success: true, stats: STATS } },
        [`GET ${BASE}/participants`]: () => ({
          body: {
            success: true,
            participants: [
              participant(
                'PSYNCED',
                synced ? { lastDeviceSyncAt: new Date().toISOString(), latestDay: DAY } : {},
              ),
            ],
            totalCount: 1,
          },
        }),
      });
      renderRoute(`/researcher/study/${STUDY_ID}`);
      expect(await screen.findByText('Never', {}, { timeout: 10_000 })).toBeInTheDocument();
      const asked = api.calls.filter((r) => r.path === `${BASE}/participants`).length;

      synced = true;
      await vi.advanceTimersByTimeAsync(PARTICIPANTS_REFETCH_MS);
      expect(await screen.findByText('just now')).toBeInTheDocument();
      expect(screen.getByText(/^Nov 25: 8,432 steps/)).toBeInTheDocument();
      expect(api.calls.filter((r) => r.path === `${BASE}/participants`).length).toBe(asked + 1);
    } finally {
      vi.useRealTimers();
    }
  });
});
