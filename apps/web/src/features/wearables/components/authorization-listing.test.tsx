import { GOOGLE_HEALTH_READ_SCOPES, type WearableAuthorizationRow } from '@research/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { makeAuthorizationRow } from '../../../test/study-fixtures';
import { AuthorizationListing } from './authorization-listing';

const [ACTIVITY, , SLEEP] = GOOGLE_HEALTH_READ_SCOPES;

const row = (over: Partial<WearableAuthorizationRow>) =>
  makeAuthorizationRow({ grantedScopes: [ACTIVITY ?? '', SLEEP ?? ''], ...over });

function renderListing(rows: WearableAuthorizationRow[]) {
  const { calls } = installFakeApi({
    'GET /api/studies/s-1/wearable-authorizations': {
      body: { success: true, authorizations: rows, totalCount: rows.length },
    },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AuthorizationListing studyId="s-1" notify={() => {}} />
    </QueryClientProvider>,
  );
  return () => calls.map((c) => `${c.path}${c.search}`);
}

describe('wearable authorization listing', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows each participant’s connection facts and the Google Health sentence', async () => {
    const requested = renderListing([
      row({}),
      row({
        id: 'P0000000000000002',
        participantId: 'P0000000000000002',
        name: 'Mary Seacole',
        email: 'mary@example.test',
        authorizationStatus: false,
        hasTokens: false,
        wearableUserId: null,
        grantedScopes: [],
        status: null,
      }),
      row({
        id: 'c0ffee00-0000-4000-8000-000000000003',
        participantId: 'P0000000000000003',
        name: 'Ada Lovelace',
        status: 'needs_reauthorization',
        authorizationStatus: false,
        hasTokens: false,
      }),
      row({
        id: 'c0ffee00-0000-4000-8000-000000000004',
        participantId: 'P0000000000000004',
        name: 'Grace Hopper',
        tokenExpiresAt: '2020-01-01T00:00:00.000Z',
        grantedScopes: [...GOOGLE_HEALTH_READ_SCOPES],
      }),
    ]);
    const table = await screen.findByRole('table', { name: 'Wearable Authorizations' });
    expect(requested()[0]).toContain('/api/studies/s-1/wearable-authorizations?limit=10&offset=0');
    expect(screen.getByText(/^Fitbit data now comes through the Google Health API/)).toBeTruthy();
    const rowOf = (id: string) => {
      const found = table.querySelector(`tr[data-participant-id="${id}"]`);
      if (!(found instanceof HTMLElement)) throw new Error(`no row ${id}`);
      return within(found);
    };
    const connected = rowOf('P0000000000000001');
    expect(connected.getByText('c0ffee00')).toBeTruthy();
    expect(connected.getByText('Florence Nightingale')).toBeTruthy();
    expect(connected.getByText('florence@example.test')).toBeTruthy();
    expect(connected.getByText('Authorized')).toBeTruthy();
    expect(connected.getByText('Yes')).toBeTruthy();
    expect(connected.getByText('1884575035688424564')).toBeTruthy();
    expect(connected.getByText('Activity')).toBeTruthy();
    expect(connected.getByText('Sleep')).toBeTruthy();
    // The scopes left unticked on Google's page, named on the row.
    expect(connected.getByText('Not shared:')).toBeTruthy();
    expect(connected.getByText('Heart & body')).toBeTruthy();
    expect(connected.getByText('Profile')).toBeTruthy();
    expect(
      connected.getByRole('button', { name: 'Refresh token P0000000000000001' }),
    ).toHaveProperty('disabled', false);

    const never = rowOf('P0000000000000002');
    expect(never.getByText('Not Authorized')).toBeTruthy();
    expect(never.queryByText('Not shared:')).toBeNull();
    expect(never.getByText('No')).toBeTruthy();
    expect(never.getByRole('button', { name: 'Refresh token P0000000000000002' })).toHaveProperty(
      'disabled',
      true,
    );

    expect(rowOf('P0000000000000003').getByText('Needs Reauthorization')).toBeTruthy();
    // Active, but the stored grant expiry has passed (a Testing client's 7 days).
    expect(rowOf('P0000000000000004').getByText('Expired')).toBeTruthy();
    // Everything shared: nothing to flag.
    expect(rowOf('P0000000000000004').queryByText('Not shared:')).toBeNull();
  });
});
