import {
  AUTH_SERVER_MESSAGES,
  type Researcher,
  type ResearcherApplicationView,
} from '@research/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  type FakeRoute,
  failure,
  installAccount,
  makeNotificationStatus,
} from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

function makeApplication(
  overrides: Partial<ResearcherApplicationView> = {},
): ResearcherApplicationView {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    userId: 'u-2',
    firstName: 'Rosalind',
    lastName: 'Franklin',
    email: 'rosalind@example.test',
    dateOfBirth: '1990-07-25',
    phoneNumber: '+15551234567',
    institution: 'King’s College',
    position: 'Research Fellow',
    department: 'Biophysics',
    researchArea: 'Crystallography',
    description: 'Sleep and heart-rate variability in shift workers.',
    status: 'pending',
    submittedAt: '2026-03-07T14:05:00.000Z',
    reviewedAt: null,
    reviewNotes: null,
    verificationDocuments: [],
    ...overrides,
  };
}

function makeResearcher(overrides: Partial<Researcher> = {}): Researcher {
  return {
    id: 'r-1',
    applicationId: '22222222-2222-4222-8222-222222222222',
    firstName: 'Marie',
    lastName: 'Curie',
    email: 'marie@example.test',
    institution: 'Sorbonne',
    department: 'Physics',
    position: 'Professor',
    researchArea: 'Radioactivity',
    status: 'approved',
    approvedAt: '2026-02-01T10:00:00.000Z',
    lastLoginAt: null,
    ...overrides,
  };
}

interface Data {
  pending?: ResearcherApplicationView[];
  approved?: ResearcherApplicationView[];
  rejected?: ResearcherApplicationView[];
  /** Reset or replaced applications: counted in the total only. */
  archived?: ResearcherApplicationView[];
  researchers?: Researcher[];
}

/**
 * A master signed in, and the admin lists answered from `data`, honouring status, e-mail, limit
 * and offset of the request as the server does (no filter: the whole history).
 */
function openDashboard(
  data: Data = {},
  extra: Record<string, FakeRoute> = {},
  path = '/master/dashboard',
) {
  const page = <T,>(rows: T[], query: URLSearchParams) => {
    const limit = Number(query.get('limit') ?? 50);
    const offset = Number(query.get('offset') ?? 0);
    return rows.slice(offset, offset + limit);
  };
  const api = installAccount('master', {
    'GET /api/admin/researcher-applications': ({ query }) => {
      const status = query.get('status') as 'pending' | 'approved' | 'rejected' | null;
      const email = query.get('email');
      const live = [...(data.pending ?? []), ...(data.approved ?? []), ...(data.rejected ?? [])];
      const rows = email
        ? live.filter((a) => a.email === email)
        : status
          ? (data[status] ?? [])
          : [...live, ...(data.archived ?? [])];
      return {
        body: { success: true, applications: page(rows, query), totalCount: rows.length },
      };
    },
    'GET /api/admin/researchers': ({ query }) => {
      const rows = data.researchers ?? [];
      return {
        body: { success: true, researchers: page(rows, query), totalCount: rows.length },
      };
    },
    'GET /api/admin/health-notifications': {
      body: { success: true, notifications: makeNotificationStatus() },
    },
    ...extra,
  });
  const urls = () => api.calls.map((c) => new URL(`${c.path}${c.search}`, 'http://app.test'));
  const view = renderRoute(path);
  return { ...api, ...view, urls, user: userEvent.setup() };
}

const heading = () =>
  // The first render also loads the lazy page chunk, which can take seconds on a cold cache.
  screen.findByRole('heading', { level: 1, name: 'Master Account Dashboard' }, { timeout: 10_000 });

function statValue(label: string) {
  return within(screen.getByRole('group', { name: label })).getByTestId('stat-value');
}

// Typing into MUI fields in jsdom is slow; the flows below type several sentences.
describe('Master dashboard', { timeout: 20_000 }, () => {
  it('fills the stat cards and the tab labels from limit=1 count calls', async () => {
    const { urls } = openDashboard({
      pending: [
        makeApplication({ id: 'p1' }),
        makeApplication({ id: 'p2' }),
        makeApplication({ id: 'p3' }),
      ],
      approved: [
        makeApplication({ id: 'a1', status: 'approved' }),
        makeApplication({ id: 'a2', status: 'approved' }),
      ],
      rejected: [makeApplication({ id: 'x1', status: 'rejected' })],
      archived: [makeApplication({ id: 'o1', status: 'rejected' })],
      researchers: [makeResearcher({ id: 'r1' }), makeResearcher({ id: 'r2' })],
    });
    await heading();
    // The history: 3 + 2 + 1 current applications and one that was reset.
    await waitFor(() => expect(statValue('Total Applications')).toHaveTextContent('7'));
    expect(statValue('Pending Applications')).toHaveTextContent('3');
    expect(statValue('Active Researchers')).toHaveTextContent('2');
    expect(statValue('Rejected Applications')).toHaveTextContent('1');
    expect(screen.getByRole('tab', { name: 'Pending Applications (3)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('tab', { name: 'Approved Researchers (2)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Rejected Applications (1)' })).toBeInTheDocument();

    const counts = urls().filter((u) => u.searchParams.get('limit') === '1');
    const described = counts.map((u) => `${u.pathname}?status=${u.searchParams.get('status')}`);
    expect(described).toEqual(
      expect.arrayContaining([
        '/api/admin/researcher-applications?status=pending',
        '/api/admin/researcher-applications?status=null',
        '/api/admin/researcher-applications?status=rejected',
        '/api/admin/researchers?status=approved',
      ]),
    );
    // The pending table is one server page of 25.
    expect(
      urls().some(
        (u) =>
          u.searchParams.get('status') === 'pending' &&
          u.searchParams.get('limit') === '25' &&
          u.searchParams.get('offset') === '0',
      ),
    ).toBe(true);
  });

  it('shows the pending row: applicant, institution, description fallback, chip, date', async () => {
    openDashboard({ pending: [makeApplication({ description: '' })] });
    const table = await screen.findByRole('table', { name: 'Pending applications' });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(row).toHaveTextContent('Rosalind Franklin');
    expect(row).toHaveTextContent('rosalind@example.test');
    expect(row).toHaveTextContent('King’s College');
    expect(row).toHaveTextContent('No description provided');
    expect(row).toHaveTextContent('Pending');
    expect(row).toHaveTextContent(/3\/7\/2026/);
  });

  it('shows each empty state', async () => {
    const { user } = openDashboard();
    expect(await screen.findByText('No Pending Applications')).toBeInTheDocument();
    expect(
      screen.getByText('All researcher applications have been processed.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /^Approved Researchers/ }));
    expect(await screen.findByText('No Researchers Found')).toBeInTheDocument();
    expect(screen.getByText('No approved researchers found.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /^Rejected Applications/ }));
    expect(await screen.findByText('No Rejected Applications')).toBeInTheDocument();
    expect(
      screen.getByText('All applications are either pending or approved.'),
    ).toBeInTheDocument();
  });

  it('reject: the button stays disabled until a reason is typed, then sends it', async () => {
    const application = makeApplication();
    const { user, calls } = openDashboard(
      { pending: [application] },
      {
        [`PUT /api/admin/researcher-applications/${application.id}/review`]: {
          body: { success: true },
        },
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Reject: Rosalind Franklin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Application' });
    const reason = within(dialog).getByRole('textbox', { name: 'Rejection Reason *' });
    const reject = within(dialog).getByRole('button', { name: 'Reject' });
    expect(reject).toBeDisabled();
    expect(within(dialog).getByText('Rejection reason is required')).toBeInTheDocument();

    await user.type(reason, '   ');
    await user.tab();
    expect(
      within(dialog).getByText('Rejection reason is required when rejecting an application.'),
    ).toBeInTheDocument();
    expect(reject).toBeDisabled();

    await user.clear(reason);
    await user.type(reason, 'Missing proof of affiliation');
    expect(reject).toBeEnabled();
    await user.click(reject);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
        path: `/api/admin/researcher-applications/${application.id}/review`,
        body: { action: 'reject', reviewNotes: 'Missing proof of affiliation' },
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Application rejected')).toBeInTheDocument();
  });

  it("reject refused by the server: 'Failed to process application' and its message", async () => {
    const application = makeApplication();
    const { user } = openDashboard(
      { pending: [application] },
      {
        [`PUT /api/admin/researcher-applications/${application.id}/review`]: {
          status: 409,
          body: failure('The application is no longer pending.', 'APPLICATION_NOT_PENDING'),
        },
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Reject: Rosalind Franklin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Application' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Rejection Reason *' }), 'No');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Failed to process application')).toBeInTheDocument();
    expect(within(dialog).getByText('The application is no longer pending.')).toBeInTheDocument();
  });

  it('approve sends the optional notes, or an empty body without them, and reloads counts', async () => {
    const first = makeApplication({ id: '33333333-3333-4333-8333-333333333333' });
    const second = makeApplication({
      id: '44444444-4444-4444-8444-444444444444',
      firstName: 'Alan',
      lastName: 'Turing',
      email: 'alan@example.test',
    });
    const ok = { body: { success: true } };
    const { user, calls } = openDashboard(
      { pending: [first, second] },
      {
        [`POST /api/admin/researcher-applications/${first.id}/approve`]: ok,
        [`POST /api/admin/researcher-applications/${second.id}/approve`]: ok,
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Approve: Rosalind Franklin' }));
    let dialog = await screen.findByRole('dialog', { name: 'Approve Application' });
    const countCallsBefore = calls.filter((c) => c.path === '/api/admin/researchers').length;
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Approval Notes' }),
      'Welcome aboard',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST' && c.path.endsWith('/approve'))).toHaveLength(
        1,
      ),
    );
    expect(calls.find((c) => c.path.endsWith(`${first.id}/approve`))?.body).toEqual({
      reviewNotes: 'Welcome aboard',
    });
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/admin/researchers').length).toBeGreaterThan(
        countCallsBefore,
      ),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Approve: Alan Turing' }));
    dialog = await screen.findByRole('dialog', { name: 'Approve Application' });
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path.endsWith(`${second.id}/approve`))?.body).toEqual({}),
    );
  });

  it('details dialog: the fields, documents in MB with 2 decimals, Close, Reject, Approve', async () => {
    const application = makeApplication({
      verificationDocuments: [
        {
          id: 'd1',
          name: 'affiliation-letter.pdf',
          size: 1_572_864,
          type: 'application/pdf',
          uploadedAt: '2026-03-07T14:05:00.000Z',
        },
      ],
    });
    const { user } = openDashboard({ pending: [application] });
    await user.click(
      await screen.findByRole('button', { name: 'View Details: Rosalind Franklin' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Application Details' });
    expect(dialog).toHaveTextContent('Rosalind Franklin');
    expect(dialog).toHaveTextContent('rosalind@example.test');
    expect(dialog).toHaveTextContent('7/25/1990');
    expect(dialog).toHaveTextContent('King’s College');
    expect(dialog).toHaveTextContent('Sleep and heart-rate variability in shift workers.');
    expect(dialog).toHaveTextContent(/3\/7\/2026, \d{1,2}:\d{2} [AP]M/);
    expect(dialog).toHaveTextContent('affiliation-letter.pdf');
    expect(dialog).toHaveTextContent('1.50 MB · application/pdf');
    expect(
      within(dialog).getByRole('button', { name: 'Download affiliation-letter.pdf' }),
    ).toBeInTheDocument();
    for (const name of ['Close', 'Reject', 'Approve']) {
      expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
    }
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByRole('dialog', { name: 'Reject Application' })).toBeInTheDocument();
  });

  it('rejected tab: details with the reason and document sizes (KB with 1 decimal, at least 0.1 KB)', async () => {
    const application = makeApplication({
      status: 'rejected',
      reviewedAt: '2026-03-09T09:00:00.000Z',
      reviewNotes: 'Missing proof of affiliation',
      verificationDocuments: [
        {
          id: 'd1',
          name: 'id-card.png',
          size: 1536,
          type: 'image/png',
          uploadedAt: '2026-03-07T14:05:00.000Z',
        },
        {
          id: 'd2',
          name: 'note.pdf',
          size: 40,
          type: 'application/pdf',
          uploadedAt: '2026-03-07T14:05:00.000Z',
        },
      ],
    });
    const { user } = openDashboard(
      { rejected: [application] },
      {},
      '/master/dashboard?tab=rejected',
    );
    const table = await screen.findByRole('table', { name: 'Rejected applications' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Applicant', 'Institution', 'Description', 'Status', 'Rejected Date', 'Actions']);
    expect(table).toHaveTextContent('3/9/2026');
    await user.click(
      within(table).getByRole('button', { name: 'View Details: Rosalind Franklin' }),
    );
    const dialog = await screen.findByRole('dialog', { name: /Rejected Application/ });
    expect(dialog).toHaveTextContent('Missing proof of affiliation');
    expect(dialog).toHaveTextContent('id-card.png');
    expect(dialog).toHaveTextContent('1.5 KB');
    // Sizes read in KB or MB only; a small file reads '0.1 KB', never '0.0 KB'.
    expect(dialog).toHaveTextContent('0.1 KB');
    expect(dialog).not.toHaveTextContent('0.0 KB');
    expect(dialog).not.toHaveTextContent('Bytes');
    expect(dialog).toHaveTextContent('Rejected');
  });

  it('reset asks first, then calls PUT …/{id}/reset, reloads the list and keeps the total', async () => {
    const application = makeApplication({
      status: 'rejected',
      reviewedAt: '2026-03-09T09:00:00.000Z',
    });
    const data: Data = { rejected: [application] };
    const { user, calls } = openDashboard(
      data,
      {
        [`PUT /api/admin/researcher-applications/${application.id}/reset`]: () => {
          data.rejected = [];
          data.archived = [application];
          return { body: { success: true } };
        },
      },
      '/master/dashboard?tab=rejected',
    );
    const isReset = (c: { method: string; path: string }) =>
      c.method === 'PUT' && c.path === `/api/admin/researcher-applications/${application.id}/reset`;
    await waitFor(() => expect(statValue('Total Applications')).toHaveTextContent('1'));
    await user.click(
      await screen.findByRole('button', { name: 'Reset for Resubmission: Rosalind Franklin' }),
    );
    // One click only asks; Cancel leaves everything as it was.
    let confirm = await screen.findByRole('alertdialog', { name: 'Reset for Resubmission?' });
    expect(confirm).toHaveTextContent('Rosalind Franklin');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.some(isReset)).toBe(false);

    await user.click(
      screen.getByRole('button', { name: 'Reset for Resubmission: Rosalind Franklin' }),
    );
    confirm = await screen.findByRole('alertdialog', { name: 'Reset for Resubmission?' });
    await user.click(within(confirm).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(calls.filter(isReset)).toHaveLength(1));
    expect(await screen.findByText('No Rejected Applications')).toBeInTheDocument();
    expect(
      await screen.findByRole('tab', { name: 'Rejected Applications (0)' }),
    ).toBeInTheDocument();
    expect(statValue('Rejected Applications')).toHaveTextContent('0');
    expect(statValue('Total Applications')).toHaveTextContent('1');
  });

  it('tab labels carry no count until the count has loaded', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every list and count call waits: no tab may read '(0)' before its number is known.
    openDashboard(
      {},
      {
        'GET /api/admin/researcher-applications': async () => {
          await gate;
          return { body: { success: true, applications: [], totalCount: 0 } };
        },
        'GET /api/admin/researchers': async () => {
          await gate;
          return { body: { success: true, researchers: [], totalCount: 0 } };
        },
      },
    );
    await heading();
    for (const name of ['Pending Applications', 'Approved Researchers', 'Rejected Applications'])
      expect(await screen.findByRole('tab', { name })).toBeInTheDocument();
    release();
    for (const name of [
      'Pending Applications (0)',
      'Approved Researchers (0)',
      'Rejected Applications (0)',
    ])
      expect(await screen.findByRole('tab', { name })).toBeInTheDocument();
  });

  it("reset failure shows 'Failed to reset application'", async () => {
    const application = makeApplication({ status: 'rejected' });
    const { user } = openDashboard(
      { rejected: [application] },
      {
        [`PUT /api/admin/researcher-applications/${application.id}/reset`]: {
          status: 409,
          body: failure('Only a rejected application can be reset.', 'APPLICATION_NOT_REJECTED'),
        },
      },
      '/master/dashboard?tab=rejected',
    );
    await user.click(
      await screen.findByRole('button', { name: 'Reset for Resubmission: Rosalind Franklin' }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Reset for Resubmission?' });
    await user.click(within(confirm).getByRole('button', { name: 'Reset' }));
    expect(await within(confirm).findByText('Failed to reset application')).toBeInTheDocument();
    expect(
      within(confirm).getByText('Only a rejected application can be reset.'),
    ).toBeInTheDocument();
  });

  it("approved researchers: institution with department, 'Never' without a last login, the application", async () => {
    // The application behind makeResearcher()'s Marie Curie, approved when she was.
    const { applicationId, approvedAt, ...marie } = makeResearcher();
    const approvedApplication = makeApplication({
      id: applicationId,
      firstName: marie.firstName,
      lastName: marie.lastName,
      email: marie.email,
      institution: marie.institution,
      department: marie.department,
      position: marie.position,
      status: 'approved',
      reviewedAt: approvedAt,
    });
    const { user } = openDashboard(
      {
        approved: [approvedApplication],
        researchers: [
          makeResearcher(),
          makeResearcher({
            id: 'r2',
            firstName: 'Ada',
            lastName: 'Byron',
            email: 'ada@example.test',
            lastLoginAt: '2026-03-01T08:00:00.000Z',
          }),
        ],
      },
      {},
      '/master/dashboard?tab=approved',
    );
    const table = await screen.findByRole('table', { name: 'Approved researchers' });
    const rows = within(table).getAllByRole('row');
    const curie = rows[1] as HTMLElement;
    const byron = rows[2] as HTMLElement;
    expect(curie).toHaveTextContent('Sorbonne');
    expect(curie).toHaveTextContent('Physics');
    expect(curie).toHaveTextContent('Radioactivity');
    expect(curie).toHaveTextContent('2/1/2026');
    expect(curie).toHaveTextContent('Never');
    expect(byron).toHaveTextContent('3/1/2026');
    expect(byron).not.toHaveTextContent('Never');

    await user.click(within(curie).getByRole('button', { name: 'View Application: Marie Curie' }));
    const dialog = await screen.findByRole('dialog', { name: /Researcher Application/ });
    expect(await within(dialog).findByText('Professor')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Physics');
    expect(dialog).toHaveTextContent('Approved');
    expect(dialog).toHaveTextContent('Sleep and heart-rate variability in shift workers.');
  });

  it('failures show the catalogue texts', async () => {
    const { user } = openDashboard(
      {},
      {
        'GET /api/admin/researcher-applications': {
          status: 403,
          body: failure(AUTH_SERVER_MESSAGES.masterOnly, 'MASTER_ONLY'),
        },
        'GET /api/admin/researchers': {
          status: 403,
          body: failure(AUTH_SERVER_MESSAGES.masterOnly, 'MASTER_ONLY'),
        },
      },
    );
    expect(await screen.findByText('Failed to load dashboard data')).toBeInTheDocument();
    expect(await screen.findByText('Failed to load applications')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /^Approved Researchers/ }));
    expect(await screen.findByText('Failed to load researchers')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /^Rejected Applications/ }));
    expect(await screen.findByText('Failed to load rejected applications')).toBeInTheDocument();
  });
});
