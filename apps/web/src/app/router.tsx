import { createBrowserRouter, type RouteObject, replace, useLocation } from 'react-router';
import { LoadingIndicator } from '../components/loading-indicator';
import { ErrorPage } from './error-page';
import {
  DashboardRedirect,
  loadingMessageFor,
  RequireApprovedResearcher,
  RequireMaster,
  RequireSignedIn,
  RequireSignedOut,
} from './guards/route-guards';
import { RootLayout } from './layout/root-layout';
import { lazyPage } from './lazy-page';

/**
 * The screens. Adding one is one entry: a path and `lazyPage(() => import(...))`, so every page
 * is its own chunk and the landing route stays small. Guarded groups (signed in,
 * approved researcher, master) become a pathless entry whose Component is the guard and whose
 * children are the guarded pages.
 */
export const pageRoutes: RouteObject[] = [
  { index: true, lazy: lazyPage(() => import('../features/landing/components/landing-page')) },
  { path: 'dashboard', Component: DashboardRedirect },
  {
    // TanStack Query for every page below, loaded with them rather than with the landing page.
    id: 'query',
    lazy: lazyPage(() => import('./query-boundary')),
    children: [
      {
        path: 'reset-password',
        lazy: lazyPage(() => import('../features/auth/components/reset-password-page')),
      },
      { path: 'setup', lazy: lazyPage(() => import('../features/auth/components/setup-page')) },
      {
        path: 'confirm-email',
        lazy: lazyPage(() => import('../features/auth/components/confirm-email-page')),
      },
      // Participant enrolment and verification: no sign-in.
      {
        path: 'participant/enroll',
        lazy: lazyPage(() => import('../features/participant/components/enroll-page')),
      },
      {
        path: 'participant/flow',
        lazy: lazyPage(() => import('../features/participant/components/flow-page')),
      },
      {
        path: 'participant/verify',
        lazy: lazyPage(() => import('../features/participant/components/verify-page')),
      },
      {
        path: 'participant/verify-email',
        lazy: lazyPage(() => import('../features/participant/components/verify-email-page')),
      },
      {
        path: 'participant/info',
        lazy: lazyPage(() => import('../features/participant/components/info-page')),
      },
      {
        path: 'participant/reminders/stop',
        lazy: lazyPage(() => import('../features/participant/components/reminders-stop-page')),
      },
      {
        path: 'participant/success',
        lazy: lazyPage(() => import('../features/participant/components/success-page')),
      },
      {
        path: 'fitbit/reauthorize',
        lazy: lazyPage(() => import('../features/wearables/components/reauthorize-page')),
      },
      {
        Component: RequireSignedOut,
        children: [
          {
            path: 'researcher/auth',
            lazy: lazyPage(() => import('../features/auth/components/researcher-portal-page')),
          },
        ],
      },
      {
        Component: RequireSignedIn,
        children: [
          {
            path: 'researcher/register',
            lazy: lazyPage(() => import('../features/applications/components/register-page')),
          },
          {
            path: 'researcher/application-status',
            lazy: lazyPage(
              () => import('../features/applications/components/application-status-page'),
            ),
          },
        ],
      },
      {
        Component: RequireMaster,
        children: [
          {
            path: 'master/dashboard',
            lazy: lazyPage(() => import('../features/admin/components/master-dashboard-page')),
          },
          {
            path: 'master/audit',
            lazy: lazyPage(() => import('../features/audit/components/platform-audit-page')),
          },
        ],
      },
      {
        Component: RequireApprovedResearcher,
        children: [
          {
            path: 'researcher/dashboard',
            lazy: lazyPage(
              () => import('../features/studies/components/researcher-dashboard-page'),
            ),
          },
          {
            path: 'researcher/study/:studyId',
            lazy: lazyPage(() => import('./routes/study-detail-route')),
          },
          {
            path: 'researcher/study/:studyId/audit',
            lazy: lazyPage(() => import('../features/audit/components/study-audit-page')),
          },
          {
            path: 'researcher/study/:studyId/participant/:participantId',
            lazy: lazyPage(
              () => import('../features/adherence/components/participant-charts-page'),
            ),
          },
        ],
      },
    ],
  },
];

function PageFallback() {
  return <LoadingIndicator message={loadingMessageFor(useLocation().pathname)} />;
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
          // Any unknown path goes to the landing page, replacing the bad entry.
          { path: '*', loader: () => replace('/') },
        ],
      },
    ],
  },
  {
    // The Google sign-in popup lands here: a bare page without navigation or footer.
    path: '/auth/google/callback',
    errorElement: <ErrorPage />,
    HydrateFallback: PageFallback,
    lazy: lazyPage(() => import('../features/auth/components/google-callback-page')),
  },
  {
    // Google's consent returns here, in a popup or in the participant's tab: a bare page.
    path: '/fitbit/callback',
    errorElement: <ErrorPage />,
    HydrateFallback: PageFallback,
    lazy: lazyPage(() => import('../features/wearables/components/fitbit-callback-page')),
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
