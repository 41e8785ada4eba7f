import { STUDY_MESSAGES } from '@research/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type AccountKind, failure, installAccount } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';

const AUTH = '/researcher/auth';
const REGISTER = '/researcher/register';
const STATUS = '/researcher/application-status';
const MASTER = '/master/dashboard';
const RESEARCHER = '/researcher/dashboard';
const STUDY = '/researcher/study/s-42';

/** Heading each landing place shows, so the test sees the page, not just the URL. */
const HEADINGS: Record<string, string> = {
  [AUTH]: 'Researcher Portal',
  [REGISTER]: 'Researcher Registration',
  [MASTER]: 'Master Account Dashboard',
  [RESEARCHER]: 'Researcher Dashboard',
  // There is no study s-42: the page itself asks for it and says so.
  [STUDY]: 'Study not found',
};

const KINDS: AccountKind[] = [
  'signed-out',
  'noprofile',
  'pending',
  'rejected',
  'approved',
  'master',
];

/** Where each account belongs: most routes send it there. */
const HOME: Record<AccountKind, string> = {
  'signed-out': AUTH,
  noprofile: REGISTER,
  pending: STATUS,
  rejected: STATUS,
  approved: RESEARCHER,
  master: MASTER,
};

/** Where each account ends up when it opens each route. */
const MATRIX: Record<string, Record<AccountKind, string>> = {
  '/dashboard': HOME,
  [AUTH]: HOME,
  // A rejected researcher may apply again.
  [REGISTER]: { ...HOME, rejected: REGISTER },
  [STATUS]: HOME,
  [MASTER]: HOME,
  [RESEARCHER]: HOME,
  [STUDY]: { ...HOME, approved: STUDY },
};

const cases = Object.entries(MATRIX).flatMap(([route, row]) =>
  KINDS.map((kind) => [route, kind, row[kind]] as const),
);

describe('route guards and the /dashboard redirect', () => {
  it.each(cases)('%s as %s ends on %s', async (route, kind, target) => {
    // The server's answer for a study that does not exist (not the fake's generic 404).
    installAccount(kind, {
      'GET /api/studies/s-42': {
        status: 404,
        body: failure(STUDY_MESSAGES.notFound, 'STUDY_NOT_FOUND'),
      },
    });
    const { router } = renderRoute(route);
    await waitFor(() => expect(router.state.location.pathname).toBe(target), { timeout: 3000 });
    const heading =
      target === STATUS
        ? kind === 'rejected'
          ? 'Application Not Approved'
          : 'Application Under Review'
        : HEADINGS[target];
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('shows the loading indicator, not the page, while the session is being verified', async () => {
    installAccount('approved', {
      'POST /api/auth/verify-token': () => new Promise(() => {}),
    });
    renderRoute(RESEARCHER);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByRole('heading', { name: 'Researcher Dashboard' })).toBeNull();
  });

  it('a non-master signed-in user is sent from the master dashboard to the researcher dashboard', async () => {
    installAccount('approved');
    const { router } = renderRoute(MASTER);
    await waitFor(() => expect(router.state.location.pathname).toBe(RESEARCHER));
  });
});
