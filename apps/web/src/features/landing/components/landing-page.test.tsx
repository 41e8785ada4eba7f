import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
