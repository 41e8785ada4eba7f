import type { NotificationStatus } from '@research/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, installAccount, makeNotificationStatus } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

const TITLE = 'Google Health change notifications';

/** The master's dashboard, the applications lists empty, the card answered with `status`. */
function openDashboard(reply: { status?: number; body: unknown }) {
  const empty = { success: true, applications: [], totalCount: 0 };
  installAccount('master', {
    'GET /api/admin/researcher-applications': { body: empty },
    'GET /api/admin/researchers': { body: { success: true, researchers: [], totalCount: 0 } },
    'GET /api/admin/health-notifications': reply,
  });
  renderRoute('/master/dashboard');
}

const answer = (overrides: Partial<NotificationStatus>) => ({
  body: { success: true, notifications: makeNotificationStatus(overrides) },
});

/** The card, once its answer is shown (the lazy page chunk can take seconds on a cold cache). */
async function card() {
  const region = await screen.findByRole('region', { name: TITLE }, { timeout: 10_000 });
  await within(region).findByRole('heading', { level: 3, name: 'Webhook subscriber' });
  return within(region);
}

/** The value shown under a label of a detail list. */
function detail(scope: Awaited<ReturnType<typeof card>>, label: string) {
  const term = scope.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('Change notifications card', { timeout: 20_000 }, () => {
  it('shows the registered subscriber, what arrived, the backlog and the refusals explained', async () => {
    openDashboard(
      answer({
        received: { lastAt: '2026-03-14T11:58:00.000Z', lastDataType: 'steps', last24Hours: 42 },
        backlog: {
          unresolved: 3,
          oldestUnresolvedAt: '2026-03-14T11:59:00.000Z',
          pending: 7,
          processing: 2,
          oldestPendingAt: '2026-03-14T09:00:00.000Z',
        },
        refusals: [
          {
            reason: 'wrong_authorization',
            today: 4,
            last7Days: 9,
            lastAt: '2026-03-14T11:00:00.000Z',
          },
          { reason: 'bad_signature', today: 0, last7Days: 1, lastAt: '2026-03-10T11:00:00.000Z' },
        ],
      }),
    );
    const view = await card();
    expect(view.getByText('Registered with Google')).toBeInTheDocument();
    expect(detail(view, 'Endpoint')).toBe(
      'https://research.example.org/webhooks/google-health (This server’s endpoint)',
    );
    expect(detail(view, 'State at Google')).toBe('ACTIVE');
    expect(detail(view, 'Subscription policy')).toBe(
      'Automatic: every participant who connects is subscribed',
    );
    expect(detail(view, 'Data types (2)')).toBe('heart-rate, steps');
    expect(detail(view, 'Last notification')).toMatch(/^3\/14\/2026, .* \(steps\)$/);
    expect(detail(view, 'In the last 24 hours')).toBe('42');
    expect(detail(view, 'Notifications not yet processed')).toBe('3');
    expect(detail(view, 'Participant days waiting to be fetched')).toBe('7');
    expect(detail(view, 'Participant days being fetched')).toBe('2');
    expect(detail(view, 'Oldest waiting day')).toMatch(/\(since 3\/14\/2026, /);
    expect(view.queryByRole('alert')).toBeNull();

    const table = view.getByRole('table', { name: 'Refused calls of the last 7 days, by reason' });
    const wrong = within(table).getByRole('row', { name: /Wrong secret/ });
    expect(wrong).toHaveTextContent('check GOOGLE_HEALTH_WEBHOOK_SECRET');
    expect(
      within(wrong)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['4', '9']);
    const bad = within(table).getByRole('row', { name: /Signature does not match/ });
    expect(
      within(bad)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['0', '1']);
  });

  it('warns when the subscriber sends elsewhere or misses types, and says when none refused', async () => {
    openDashboard(
      answer({
        subscriber: {
          status: 'registered',
          name: 'projects/1/subscribers/research-platform',
          state: 'ACTIVE',
          endpointUri: 'https://old.example.org/webhooks/google-health',
          isThisEndpoint: false,
          secretSet: true,
          configs: [{ subscriptionCreatePolicy: 'MANUAL', dataTypes: ['steps'] }],
          missingDataTypes: ['sleep'],
        },
      }),
    );
    const view = await card();
    expect(view.getByText(/^Not this server’s endpoint/)).toHaveTextContent(
      'This server expects https://research.example.org/webhooks/google-health.',
    );
    expect(view.getByText(/^Not covered/)).toHaveTextContent(
      'Not covered, though the research data types need them: sleep.',
    );
    expect(detail(view, 'Subscription policy')).toBe(
      'Manual: each participant must be subscribed one by one',
    );
    expect(
      view.getByText('No call to the webhook was refused in the last 7 days.'),
    ).toBeInTheDocument();
  });

  it('says when no subscriber is registered', async () => {
    openDashboard(answer({ subscriber: { status: 'not_registered', others: [] } }));
    const view = await card();
    expect(view.getByText('Not registered')).toBeInTheDocument();
    expect(view.getByRole('alert')).toHaveTextContent(
      'Register one with npm run admin -- health-subscriber create.',
    );
  });

  it('names the missing settings when the service account is not configured', async () => {
    openDashboard(
      answer({
        subscriber: {
          status: 'not_configured',
          missing: ['GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE', 'GOOGLE_HEALTH_PROJECT_NUMBER'],
        },
        secretConfigured: false,
      }),
    );
    const view = await card();
    expect(view.getByText('Not configured')).toBeInTheDocument();
    const alerts = view.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual([
      'GOOGLE_HEALTH_WEBHOOK_SECRET is not set: this server refuses every notification.',
      expect.stringContaining(
        'GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE and GOOGLE_HEALTH_PROJECT_NUMBER not set',
      ),
    ]);
  });

  it('says Google could not be asked, with what went wrong', async () => {
    openDashboard(
      answer({
        subscriber: {
          status: 'lookup_failed',
          reason: 'permission_denied',
          detail: 'Google refused the call. Check the IAM role.',
        },
      }),
    );
    const view = await card();
    expect(view.getByRole('alert')).toHaveTextContent(
      'Google refused the service account’s request.Google refused the call. Check the IAM role.',
    );
  });

  it('keeps a failure inside the card: the rest of the dashboard works', async () => {
    openDashboard({ status: 403, body: failure('Master account only', 'MASTER_ONLY') });
    const region = await screen.findByRole('region', { name: TITLE }, { timeout: 10_000 });
    expect(
      await within(region).findByText('The notification status could not be loaded.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Pending Applications (0)' })).toBeInTheDocument();
  });
});
