import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type AccountKind, installAccount } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

describe('landing page (signed out)', () => {
  it('shows the product title, the tagline and the six features', async () => {
    renderRoute('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Wearable Health Research Platform' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        /^A secure research platform for health data collection from wearable devices/,
      ),
    ).toBeInTheDocument();
    for (const title of [
      'Secure and Compliant',
      'Wearable Integration',
      'Multi-Researcher Support',
      'Data Export',
      'Real-Time Sync',
      'Research Focused',
    ]) {
      expect(screen.getByRole('heading', { level: 3, name: title })).toBeInTheDocument();
    }
  });

  it('offers participants Join Study without an account', async () => {
    renderRoute('/');
    const card = await screen.findByRole('region', { name: 'For Participants' });
    expect(within(card).getByText('No Account Required')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Join Study' })).toHaveAttribute(
      'href',
      '/participant/enroll',
    );
  });

  it('offers researchers a secure login', async () => {
    renderRoute('/');
    const card = await screen.findByRole('region', { name: 'For Researchers' });
    expect(within(card).getByText('Secure Login Required')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Researcher Login' })).toHaveAttribute(
      'href',
      '/researcher/auth',
    );
  });

  it('has the signed-out navigation buttons', async () => {
    renderRoute('/');
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Join Study' })).toHaveAttribute(
      'href',
      '/participant/enroll',
    );
    expect(within(banner).getByRole('link', { name: 'Researcher Login' })).toHaveAttribute(
      'href',
      '/researcher/auth',
    );
  });
});

describe('landing page (signed in)', () => {
  it.each<[AccountKind, string, string, string]>([
    [
      'approved',
      'Continue to your dashboard to manage your studies.',
      'Go to Dashboard',
      '/researcher/dashboard',
    ],
    [
      'master',
      'Continue to the master dashboard to review researcher applications.',
      'Go to Dashboard',
      '/master/dashboard',
    ],
    [
      'pending',
      'Your researcher application is under review. You will receive an e-mail with the decision.',
      'View Application Status',
      '/researcher/application-status',
    ],
    [
      'noprofile',
      'Complete your researcher application to start creating studies.',
      'Complete Application',
      '/researcher/register',
    ],
  ])('a %s account reads a line that fits it', async (kind, line, action, href) => {
    installAccount(kind);
    renderRoute('/');
    const welcome = await screen.findByRole(
      'region',
      { name: /^Welcome back/ },
      { timeout: 10_000 },
    );
    expect(await within(welcome).findByText(line)).toBeInTheDocument();
    expect(within(welcome).getByRole('link', { name: action })).toHaveAttribute('href', href);
    if (kind !== 'approved') expect(welcome).not.toHaveTextContent('manage your studies');
  });
});
