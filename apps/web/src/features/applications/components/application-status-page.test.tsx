import { APPLICATION_MESSAGES, type UserProfile } from '@research/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  type AccountKind,
  type FakeRoute,
  failure,
  installAccount,
  makeApplication,
  makeProfile,
} from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

const STATUS = '/researcher/application-status';
const LOAD = { timeout: 5000 };

function profileOf(status: UserProfile['status']) {
  return makeProfile({
    status,
    firstName: 'Ada',
    lastName: 'Lovelace',
    institution: 'Analytical Engine Institute',
  });
}

function openStatus(
  kind: AccountKind,
  statusReply: FakeRoute,
  extra: Record<string, FakeRoute> = {},
) {
  const routes: Record<string, FakeRoute> = {
    'GET /api/auth/application-status': statusReply,
    ...extra,
  };
  if (kind === 'pending' || kind === 'rejected') {
    routes['GET /api/auth/profile'] ??= { body: { success: true, researcher: profileOf(kind) } };
  }
  const api = installAccount(kind, routes);
  return { ...api, ...renderRoute(STATUS) };
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name }, LOAD);

describe('Application status', { timeout: 20_000 }, () => {
  it('pending: under review, with name, e-mail, institution, chip and the warnings', async () => {
    openStatus('pending', { body: { success: true, application: makeApplication() } });
    expect(await heading('Application Under Review')).toBeInTheDocument();
    expect(screen.getByText('Pending Review')).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@example.test')).toBeInTheDocument();
    expect(screen.getByText('Analytical Engine Institute')).toBeInTheDocument();
    expect(screen.getByText('Please do not submit multiple applications')).toBeInTheDocument();
    expect(
      screen.getByText(/Submitting another one will not speed up the review/),
    ).toBeInTheDocument();
    expect(await screen.findByText('3/14/2026')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Resubmit Application' })).toBeNull();
  });

  it('rejected: the reason, the en-US review date, and Resubmit Application to the form', async () => {
    openStatus('rejected', {
      body: {
        success: true,
        application: makeApplication({
          status: 'rejected',
          reviewNotes: 'Please attach proof of your appointment.',
          reviewedAt: '2026-04-02T15:30:00.000Z',
        }),
      },
    });
    expect(await heading('Application Not Approved')).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@example.test')).toBeInTheDocument();
    expect(screen.getByText('Analytical Engine Institute')).toBeInTheDocument();
    expect(await screen.findByText('Please attach proof of your appointment.')).toBeInTheDocument();
    expect(screen.getByText('4/2/2026')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Resubmit Application' }));
    expect(await heading('Researcher Registration')).toBeInTheDocument();
  });

  it('rejected without notes or review date shows the defaults', async () => {
    openStatus('rejected', {
      body: {
        success: true,
        application: makeApplication({ status: 'rejected', reviewNotes: '  ', reviewedAt: null }),
      },
    });
    expect(await heading('Application Not Approved')).toBeInTheDocument();
    expect(await screen.findByText(APPLICATION_MESSAGES.noReason)).toBeInTheDocument();
    expect(screen.getByText(APPLICATION_MESSAGES.dateNotAvailable)).toBeInTheDocument();
  });

  it(`rejected: a failed load says '${APPLICATION_MESSAGES.loadRejectionFailed}'`, async () => {
    openStatus('rejected', { status: 400, body: failure('Broken', 'BAD_REQUEST') });
    expect(await heading('Application Not Approved')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      APPLICATION_MESSAGES.loadRejectionFailed,
    );
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Resubmit Application' })).toBeInTheDocument();
  });

  it(`rejected: a malformed reply says '${APPLICATION_MESSAGES.invalidStatus}'`, async () => {
    openStatus('rejected', {
      body: { success: true, application: { ...makeApplication(), status: 'archived' } },
      offContract: true,
    });
    expect(await screen.findByRole('alert', {}, LOAD)).toHaveTextContent(
      APPLICATION_MESSAGES.invalidStatus,
    );
  });

  it.each<[AccountKind, string]>([
    ['noprofile', '/researcher/register'],
    ['approved', '/researcher/dashboard'],
    ['master', '/master/dashboard'],
  ])('sends a %s account to %s', async (kind, target) => {
    const { router, calls } = openStatus(kind, { body: { success: true, application: null } });
    await waitFor(() => expect(router.state.location.pathname).toBe(target), LOAD);
    if (kind !== 'noprofile') {
      // Their status is known from the profile; the application is not even asked for.
      expect(calls.some((c) => c.path === '/api/auth/application-status')).toBe(false);
    }
  });

  it('trusts a fresher application over a stale profile, and refreshes the profile', async () => {
    // Just submitted: the profile still says 'noprofile', the server already has the application.
    const { calls } = openStatus(
      'noprofile',
      { body: { success: true, application: makeApplication() } },
      { 'GET /api/auth/profile': { body: { success: true, researcher: makeProfile() } } },
    );
    expect(await heading('Application Under Review')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/auth/profile').length).toBeGreaterThan(1),
    );
  });
});
