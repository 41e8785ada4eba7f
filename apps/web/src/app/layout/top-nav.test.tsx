import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { installAccount } from '../../test/fake-api';
import { renderRoute } from '../../test/render-route';

async function openMenu() {
  const user = userEvent.setup();
  const button = await screen.findByRole('button', { name: /^Account menu for / });
  await user.click(button);
  return { user, menu: await screen.findByRole('menu') };
}

describe('top navigation, signed in', () => {
  it('shows the display name and the default avatar icon; no sign-in buttons', async () => {
    installAccount('noprofile');
    renderRoute('/');
    const banner = screen.getByRole('banner');
    expect(await within(banner).findByText('Ada Lovelace King')).toBeInTheDocument();
    expect(
      await within(banner).findByRole('button', { name: 'Account menu for Ada Lovelace King' }),
    ).toBeInTheDocument();
    expect(within(banner).queryByRole('link', { name: 'Researcher Login' })).toBeNull();
  });

  it('a researcher without approval sees only Sign Out', async () => {
    installAccount('pending');
    renderRoute('/');
    const { menu } = await openMenu();
    await waitFor(() =>
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((i) => i.textContent),
      ).toEqual(['Sign Out']),
    );
  });

  it('an approved researcher sees Dashboard, highlighted on the dashboard', async () => {
    installAccount('approved');
    renderRoute('/researcher/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Researcher Dashboard' });
    const { menu } = await openMenu();
    const dashboard = within(menu).getByRole('menuitem', { name: 'Dashboard' });
    expect(dashboard).toHaveAttribute('href', '/researcher/dashboard');
    expect(dashboard).toHaveClass('Mui-selected');
    expect(within(menu).queryByRole('menuitem', { name: 'Master Dashboard' })).toBeNull();
  });

  it('the master sees Master Dashboard, not highlighted elsewhere', async () => {
    installAccount('master');
    renderRoute('/');
    const { menu } = await openMenu();
    const item = await within(menu).findByRole('menuitem', { name: 'Master Dashboard' });
    expect(item).toHaveAttribute('href', '/master/dashboard');
    expect(item).not.toHaveClass('Mui-selected');
    expect(within(menu).queryByRole('menuitem', { name: 'Dashboard' })).toBeNull();
  });

  it('Sign Out signs out and goes to the landing page', async () => {
    const { calls } = installAccount('approved');
    const { router } = renderRoute('/researcher/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Researcher Dashboard' });
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(
      await within(screen.getByRole('banner')).findByRole('link', { name: 'Researcher Login' }),
    ).toBeInTheDocument();
    // Signed out on the landing page, not sent to the portal by the dashboard's guard.
    expect(router.state.location.pathname).toBe('/');
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(true);
    expect(sessionStorage.getItem('auth_token')).toBeNull();
  });

  it('the signed-in landing page welcomes the user with Go to Dashboard', async () => {
    installAccount('approved');
    renderRoute('/');
    expect(
      await screen.findByRole('heading', { name: 'Welcome back, Ada Lovelace King' }),
    ).toBeInTheDocument();
    // The link waits for the application status, which can answer after the greeting renders.
    expect(await screen.findByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute(
      'href',
      '/researcher/dashboard',
    );
    expect(screen.queryByRole('region', { name: 'For Participants' })).toBeNull();
  });
});
