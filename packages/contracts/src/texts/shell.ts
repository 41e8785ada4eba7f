/**
 * Texts of the app shell on every page: navigation, footer, error page, notification modal,
 * the session's messages and the API client's failures. A module apart from the
 * areas' texts: whatever module the shell imports travels whole in the landing route's bundle,
 * whose JavaScript budget is tight (150 KB gzip).
 */

/** Fallback shown wherever a failure comes without a reason (the product's wording). */
export const UNKNOWN_ERROR = 'Unknown error';

/** Sign-in, sign-up, password reset and session handling. */
export const AUTH_MESSAGES = {
  invalidResponse: 'Invalid response from server',
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  unknownError: UNKNOWN_ERROR,
  profileLoadFailed: 'Failed to load user profile',
  noAuthToken: 'No authentication token available',
  useSecureAuthOutsideProvider: 'useSecureAuth must be used within a SecureAuthProvider',
  useUserOutsideProvider: 'useUser must be used within a UserProvider',
} as const;

/** Generic HTTP client failures. */
export const NETWORK_MESSAGES = {
  requestTimeout: 'Request timeout',
  connectionFailed: 'Network connection failed',
  unknown: 'Unknown network error',
  httpStatus: (status: number, statusText: string) => `HTTP ${status}: ${statusText}`,
} as const;

/** Router fallback page. */
export const ROUTER_MESSAGES = {
  unexpectedError: 'Unexpected Application Error!',
  goHome: 'Go to home page',
} as const;

/** Small texts many screens show: a busy label, and the mark for a value nobody gave. */
export const PLACEHOLDER_TEXTS = {
  loading: 'Loading...',
  notGiven: '—',
} as const;

/**
 * A page's own loading words, shown from the first moment (while its code and the account check
 * load too), not only once the page itself waits for its data.
 */
export const ROUTE_LOADING_TEXTS = {
  studyDetail: 'Loading study details...',
  participantCharts: 'Loading charts…',
} as const;

/** Navigation, footer and the page frame. */
export const SHELL_TEXTS = {
  productName: 'Wearable Health Research Platform',
  homeLink: 'Wearable Health Research Platform home',
  mainNavigation: 'Main',
  joinStudy: 'Join Study',
  researcherLogin: 'Researcher Login',
  masterDashboard: 'Master Dashboard',
  dashboard: 'Dashboard',
  signOut: 'Sign Out',
  accountMenu: (name: string) => `Account menu for ${name}`,
  skipToContent: 'Skip to main content',
  loadingPage: 'Loading page',
  footerAbout:
    'A secure research platform for health data collection and analysis, built with privacy and compliance in mind.',
  copyright: (year: number) => `© ${year} Wearable Health Research Platform. All rights reserved.`,
  /** The notification modal's button. */
  gotIt: 'Got it',
} as const;

/** The lists that are tables on a wide screen and cards on a phone. */
export const TABLE_TEXTS = {
  /** Phones have no column headers to click: a select orders the cards. */
  sortBy: 'Sort by',
  ascending: 'ascending',
  descending: 'descending',
  reverseOrder: (column: string, order: string) => `Reverse the order of ${column} (now ${order})`,
  rowsPerPage: 'Rows per page:',
} as const;
