import type { Clock } from './clock.js';
import { ApiError, errorInfo } from './errors.js';

export interface QuotaUsage {
  /** Requests that passed the quota (whatever they answered next). */
  requests: number;
  /** Requests answered 429 by the quota. */
  refused: number;
}

/**
 * Fixed one-minute windows per user and per project (the OAuth client), on the sandbox clock.
 * Refused requests do not count. Google's 429 body is not documented; this is its usual shape.
 */
export class Quota {
  private window = -1;
  private perUser = new Map<string, number>();
  private perProject = new Map<string, number>();
  /** Since the start (or the last reset): each user's requests served and refused with 429. */
  private totals = new Map<string, QuotaUsage>();

  constructor(private readonly clock: Clock) {}

  reset(): void {
    this.window = -1;
    this.perUser.clear();
    this.perProject.clear();
    this.totals.clear();
  }

  /** Each user's requests so far, as Google's console counts them per user. */
  usage(): Record<string, QuotaUsage> {
    return Object.fromEntries([...this.totals].map(([user, usage]) => [user, { ...usage }]));
  }

  private total(user: string): QuotaUsage {
    let usage = this.totals.get(user);
    if (!usage) {
      usage = { requests: 0, refused: 0 };
      this.totals.set(user, usage);
    }
    return usage;
  }

  check(user: string, project: string, limits: { perUser: number; perProject: number }): void {
    const now = this.clock.now();
    const window = Math.floor(now / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.perUser.clear();
      this.perProject.clear();
    }
    const retryAfter = String(Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000)));
    const userCount = this.perUser.get(user) ?? 0;
    const projectCount = this.perProject.get(project) ?? 0;
    if (userCount >= limits.perUser || projectCount >= limits.perProject) {
      this.total(user).refused += 1;
      const perUser = userCount >= limits.perUser;
      const limit = perUser ? 'Requests per minute per user' : 'Requests per minute';
      throw new ApiError(
        429,
        'RESOURCE_EXHAUSTED',
        `Quota exceeded for quota metric 'Requests' and limit '${limit}' of service 'health.googleapis.com'.`,
        [
          errorInfo(
            'RATE_LIMIT_EXCEEDED',
            {
              service: 'health.googleapis.com',
              quota_limit: perUser ? 'RequestsPerMinutePerUser' : 'RequestsPerMinutePerProject',
              quota_limit_value: String(perUser ? limits.perUser : limits.perProject),
            },
            'googleapis.com',
          ),
        ],
        { 'Retry-After': retryAfter },
      );
    }
    this.total(user).requests += 1;
    this.perUser.set(user, userCount + 1);
    this.perProject.set(project, projectCount + 1);
  }
}
