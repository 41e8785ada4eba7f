import { createBrowserRouter, type RouteObject, replace } from 'react-router';
import { LoadingIndicator } from '../components/loading-indicator';
import { ErrorPage } from './error-page';
import { RootLayout } from './layout/root-layout';
import { lazyPage } from './lazy-page';

/**
 * The screens. Adding one is one entry: a path and `lazyPage(() => import(...))`, so every page
 * is its own chunk and the landing route stays small (DESIGN §12). Guarded groups (signed in,
 * approved researcher, master) become a pathless entry whose Component is the guard and whose
 * children are the guarded pages.
 */
export const pageRoutes: RouteObject[] = [
  { index: true, lazy: lazyPage(() => import('../features/landing/components/landing-page')) },
];

function PageFallback() {
  return <LoadingIndicator />;
}

export const appRoutes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    Component: RootLayout,
    // Last resort when the layout itself fails.
    errorElement: <ErrorPage />,
    children: [
      {
        // Pathless so that the first-load spinner and page errors render inside the layout,
        // with navigation and footer still in place.
        id: 'pages',
        HydrateFallback: PageFallback,
        errorElement: <ErrorPage />,
        children: [
          ...pageRoutes,
          // Any unknown path goes to the landing page (spec 000 §2), replacing the bad entry.
          { path: '*', loader: () => replace('/') },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
