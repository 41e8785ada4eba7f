const AUTH = 'https://www.googleapis.com/auth/';
export const EMAIL_SCOPE = `${AUTH}userinfo.email`;
export const PROFILE_SCOPE = `${AUTH}userinfo.profile`;
export const HEALTH_SCOPE_PREFIX = `${AUTH}googlehealth.`;

/** Google accepts these short forms and answers with the long ones in the token response. */
const ALIASES: Record<string, string> = { email: EMAIL_SCOPE, profile: PROFILE_SCOPE };

/** Google Health API scope areas and the access levels each offers. */
const HEALTH_AREAS: Record<string, { levels: ('readonly' | 'writeonly')[]; label: string }> = {
  activity_and_fitness: { levels: ['readonly', 'writeonly'], label: 'activity and fitness' },
  health_metrics_and_measurements: {
    levels: ['readonly', 'writeonly'],
    label: 'health metrics and measurements',
  },
  sleep: { levels: ['readonly', 'writeonly'], label: 'sleep' },
  nutrition: { levels: ['readonly', 'writeonly'], label: 'nutrition' },
  profile: { levels: ['readonly', 'writeonly'], label: 'profile' },
  settings: { levels: ['readonly', 'writeonly'], label: 'settings and paired devices' },
  location: { levels: ['readonly'], label: 'exercise location (GPS)' },
  ecg: { levels: ['readonly'], label: 'electrocardiogram' },
  irn: { levels: ['readonly'], label: 'irregular rhythm notification' },
  logged_symptoms: { levels: ['readonly', 'writeonly'], label: 'logged symptoms' },
  mindfulness: { levels: ['readonly', 'writeonly'], label: 'mindfulness and mood' },
  reproductive_health: { levels: ['readonly', 'writeonly'], label: 'reproductive health' },
};

const OTHER_SCOPES: Record<string, string> = {
  openid: 'Associate you with your personal info on Google',
  [EMAIL_SCOPE]: 'See your primary Google Account email address',
  [PROFILE_SCOPE]:
    "See your personal info, including any personal info you've made publicly available",
  [`${AUTH}cloud-platform`]: 'See, edit, configure and delete your Google Cloud data',
};

/** The scopes a person cannot untick on Google's consent screen: plain sign-in. */
export const IDENTITY_SCOPES: ReadonlySet<string> = new Set(['openid', EMAIL_SCOPE, PROFILE_SCOPE]);

/** Every scope the discovery document advertises. */
export const SUPPORTED_SCOPES: readonly string[] = [
  'openid',
  'email',
  'profile',
  ...Object.keys(OTHER_SCOPES).filter((s) => s !== 'openid'),
  ...Object.entries(HEALTH_AREAS).flatMap(([area, { levels }]) =>
    levels.map((level) => `${HEALTH_SCOPE_PREFIX}${area}.${level}`),
  ),
];

export function describeScope(scope: string): string {
  const known = OTHER_SCOPES[scope];
  if (known) return known;
  if (scope.startsWith(HEALTH_SCOPE_PREFIX)) {
    const [area = '', level] = scope.slice(HEALTH_SCOPE_PREFIX.length).split('.');
    const label = HEALTH_AREAS[area]?.label ?? area;
    return level === 'writeonly'
      ? `Add and change your ${label} data in Google Health`
      : `See your ${label} data in Google Health`;
  }
  return scope;
}

function isKnown(scope: string): boolean {
  if (scope in OTHER_SCOPES) return true;
  if (!scope.startsWith(HEALTH_SCOPE_PREFIX)) return false;
  const [area = '', level, ...rest] = scope.slice(HEALTH_SCOPE_PREFIX.length).split('.');
  const entry = HEALTH_AREAS[area];
  return rest.length === 0 && !!entry && entry.levels.some((l) => l === level);
}

/** Splits, expands aliases and de-duplicates; `invalid` lists what Google would refuse. */
export function parseScopes(raw: string): { scopes: string[]; invalid: string[] } {
  const scopes: string[] = [];
  const invalid: string[] = [];
  for (const token of raw.split(/\s+/).filter(Boolean)) {
    const scope = ALIASES[token] ?? token;
    if (!isKnown(scope)) invalid.push(token);
    else if (!scopes.includes(scope)) scopes.push(scope);
  }
  return { scopes, invalid };
}
