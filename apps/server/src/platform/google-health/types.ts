/** Shapes of the Google Health API and its OAuth answers that the platform reads. */

export interface GoogleHealthEndpoints {
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface TokenSet {
  accessToken: string;
  /** Null when the answer kept the previous refresh token (normal for a refresh grant). */
  refreshToken: string | null;
  expiresAt: Date;
  /** Set only for a "Testing" client (7 days) or time-limited grants. */
  refreshExpiresAt: Date | null;
  /** Scope URLs as granted: consent is granular, so this may be a subset of what was asked. */
  scopes: string[];
}

export interface GoogleHealthIdentity {
  healthUserId: string;
  legacyUserId: string | null;
}

export interface ListDataPointsQuery {
  /** AIP-160 filter, e.g. `steps.interval.start_time >= "…" AND steps.interval.start_time < "…"`. */
  filter?: string;
  pageSize?: number;
  pageToken?: string;
  dataSourceFamily?: string;
  /** Use `:reconcile` instead of `list` (merged sources, recommended for sleep). */
  reconcile?: boolean;
  /** Partial response: only these members in the answer. */
  fields?: string;
}

export interface DataPointPage<T> {
  dataPoints: T[];
  nextPageToken: string | null;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

export interface RollUpRequest {
  range: { startTime: string; endTime: string };
  /** Duration string, e.g. `"60s"`. */
  windowSize: string;
  pageSize?: number;
  pageToken?: string;
  dataSourceFamily?: string;
}

export interface DailyRollUpRequest {
  range: { start: { date: CivilDate }; end: { date: CivilDate } };
  windowSizeDays?: number;
  pageToken?: string;
  dataSourceFamily?: string;
}

export interface RollUpResponse<T> {
  rollupDataPoints: T[];
  nextPageToken: string | null;
}

export type DailyRollUpResponse<T> = RollUpResponse<T>;
