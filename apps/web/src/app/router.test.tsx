import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../test/render-route';
import { appRoutes } from './router';

describe('router', () => {
  it('redirects an unknown path to the landing page', async () => {
    const { router } = renderRoute('/no/such/page');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Wearable Health Research Platform' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the layout around the page: navigation and footer', async () => {
    renderRoute('/');
    await screen.findByRole('heading', { level: 1 });
    const year = new Date().getFullYear();
    expect(
      screen.getByText(
        'A secure research platform for health data collection and analysis, built with privacy and compliance in mind.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(`© ${year} Wearable Health Research Platform. All rights reserved.`),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Wearable Health Research Platform home' }),
    ).toHaveAttribute('href', '/');
  });
});

function Broken(): never {
  throw new Error('Study chunk exploded');
}

describe('error page', () => {
  it('shows the title, the error message and a link home', async () => {
    // The real tree with one page that throws, as a failed page would.
    const [root] = appRoutes;
    const [pages] = root?.children ?? [];
    const routes: RouteObject[] = [
      {
        ...root,
        children: [{ ...pages, children: [{ path: 'broken', Component: Broken }] }],
      } as RouteObject,
    ];
    renderRoute('/broken', routes);
    expect(await screen.findByText('Unexpected Application Error!')).toBeInTheDocument();
    expect(screen.getByText('Study chunk exploded')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home page' })).toHaveAttribute('href', '/');
    // Page errors keep the navigation in place.
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Researcher Login' })).toBeInTheDocument(),
    );
  });
});
