import { type AccessToken, ACCESS_TOKEN_PANEL_TEXTS as T } from '@research/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, installFakeApi } from '../../test/fake-api';
import { AccessTokensPanel } from './access-tokens-panel';

const SECRET = 'wrp_pat_abcdefGHIJKLmnopqrSTUVWXyz0123456789-_abcde';

const token = (over: Partial<AccessToken> = {}): AccessToken => ({
  id: 'c0000000-0000-4000-8000-000000000001',
  name: 'nightly export',
  prefix: 'wrp_pat_abcdef',
  ownerId: 'u-1',
  ownerName: 'Ada Lovelace',
  ownerEmail: 'ada@example.test',
  mine: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  expiresAt: '2027-02-18T10:00:00.000Z',
  lastUsedAt: '2026-11-21T08:30:00.000Z',
  lastUsedIp: '203.0.113.7',
  revokedAt: null,
  state: 'active',
  ...over,
});

function renderPanel(
  list: AccessToken[],
  everyone = false,
  routes: Record<string, FakeRoute> = {},
) {
  const notify = vi.fn();
  const { calls } = installFakeApi({
    'GET /api/studies/s-1/access-tokens': {
      body: { success: true, tokens: list, totalCount: list.length, everyone },
    },
    ...routes,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AccessTokensPanel studyId="s-1" notify={notify} />
    </QueryClientProvider>,
  );
  return { calls, notify };
}

describe('access tokens panel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the tokens with their state and last use; the owner sees whose each is', async () => {
    renderPanel(
      [
        token(),
        token({
          id: 'c0000000-0000-4000-8000-000000000002',
          name: 'old script',
          ownerName: 'Mary Seacole',
          ownerEmail: 'mary@example.test',
          mine: false,
          lastUsedAt: null,
          lastUsedIp: null,
          revokedAt: '2026-11-22T10:00:00.000Z',
          state: 'revoked',
        }),
      ],
      true,
    );
    const table = await screen.findByRole('table', { name: T.title });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1] as HTMLElement).getByText('nightly export')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('wrp_pat_abcdef…')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText(/from 203\.0\.113\.7/)).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText(T.states.active)).toBeInTheDocument();
    expect(
      within(rows[2] as HTMLElement).getByText('Mary Seacole (mary@example.test)'),
    ).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText(T.neverUsed)).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText(T.states.revoked)).toBeInTheDocument();
    // A revoked token has nothing left to revoke.
    expect(within(rows[2] as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText(T.ownerIntro)).toBeInTheDocument();
  });

  it('creates a token and shows its secret once, with a copy button and the warning', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { calls } = renderPanel([], false, {
      'POST /api/studies/s-1/access-tokens': (request) => ({
        status: 201,
        body: {
          success: true,
          token: token({
            name: (request.body as { name: string }).name,
            lastUsedAt: null,
            lastUsedIp: null,
          }),
          secret: SECRET,
        },
      }),
    });
    expect(await screen.findByText(T.empty)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: T.create }));
    const dialog = await screen.findByRole('dialog', { name: T.createDialog.title });
    // No name: the form says so and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: T.createDialog.submit }));
    expect(within(dialog).getByText('Give the token a name')).toBeInTheDocument();
    await user.type(
      within(dialog).getByRole('textbox', { name: T.createDialog.name }),
      'nightly export',
    );
    await user.click(within(dialog).getByRole('combobox', { name: T.createDialog.expiry }));
    await user.click(await screen.findByRole('option', { name: '30 days' }));
    await user.click(within(dialog).getByRole('button', { name: T.createDialog.submit }));

    const shown = await screen.findByRole('dialog', { name: T.createdDialog.title });
    expect(within(shown).getByText(T.createdDialog.warning)).toBeInTheDocument();
    expect(within(shown).getByRole('textbox', { name: T.createdDialog.secretLabel })).toHaveValue(
      SECRET,
    );
    await user.click(within(shown).getByRole('button', { name: T.createdDialog.copy }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(within(shown).getByRole('button', { name: T.createdDialog.copied })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { name: 'nightly export', expiresInDays: 30 },
    ]);

    await user.click(within(shown).getByRole('button', { name: T.createdDialog.done }));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument());
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
  });

  it('revokes a token after a confirmation', async () => {
    const user = userEvent.setup();
    const { calls, notify } = renderPanel([token()], false, {
      'DELETE /api/studies/s-1/access-tokens/c0000000-0000-4000-8000-000000000001': {
        body: {
          success: true,
          token: token({ state: 'revoked', revokedAt: '2026-11-22T10:00:00.000Z' }),
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: T.revokeLabel('nightly export') }));
    const dialog = await screen.findByRole('dialog', { name: T.revokeDialog.title });
    expect(within(dialog).getByText(T.revokeDialog.body('nightly export'))).toBeInTheDocument();
    // Cancel sends nothing.
    await user.click(within(dialog).getByRole('button', { name: T.revokeDialog.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: T.revokeLabel('nightly export') }));
    await user.click(
      within(await screen.findByRole('dialog', { name: T.revokeDialog.title })).getByRole(
        'button',
        {
          name: T.revokeDialog.confirm,
        },
      ),
    );
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', T.title, T.revoked));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
