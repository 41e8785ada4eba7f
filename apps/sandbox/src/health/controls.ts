/** Knobs tests turn over `POST /__admin/health` or the `health` handle of a started sandbox. */
export interface HealthControls {
  /** Delay added to every Health API response. */
  latencyMs: number;
  /** Share (0–1) of Health API requests answered 500 INTERNAL. */
  error500Rate: number;
  /** Share (0–1) of Health API requests answered 503 UNAVAILABLE. */
  error503Rate: number;
  /** Requests per user per minute before 429 RESOURCE_EXHAUSTED (Google: 300). */
  perUserPerMinute: number;
  /** Requests per project (OAuth client) per minute before 429 (Google: 120,000). */
  perProjectPerMinute: number;
  /**
   * The simulated OAuth client's publishing status is "Testing": refresh tokens of grants with
   * health scopes die 7 days after consent and the token response says so.
   */
  testingMode: boolean;
  /** Milliseconds added to the real time (the sandbox clock). */
  clockOffsetMs: number;
  /**
   * How much faster than Google the webhook retry schedule runs: Google keeps retrying a
   * notification for 7 days; at 1440 that week passes in 7 real minutes (a day per minute).
   */
  webhookTimeScale: number;
  /** Real milliseconds the sandbox waits for a webhook endpoint (handshake or notification). */
  webhookTimeoutMs: number;
  /** false: the service account lacks its Google Health API IAM role (subscriber calls get 403). */
  serviceAccountHasRole: boolean;
}

export const DEFAULT_HEALTH_CONTROLS: Readonly<HealthControls> = {
  latencyMs: 0,
  error500Rate: 0,
  error503Rate: 0,
  perUserPerMinute: 300,
  perProjectPerMinute: 120_000,
  testingMode: false,
  clockOffsetMs: 0,
  webhookTimeScale: 1440,
  webhookTimeoutMs: 10_000,
  serviceAccountHasRole: true,
};

const BOOLEAN = new Set<keyof HealthControls>(['testingMode', 'serviceAccountHasRole']);
type BooleanKnob = 'testingMode' | 'serviceAccountHasRole';

const NUMERIC: Record<Exclude<keyof HealthControls, BooleanKnob>, { min: number; max: number }> = {
  latencyMs: { min: 0, max: 60_000 },
  error500Rate: { min: 0, max: 1 },
  error503Rate: { min: 0, max: 1 },
  perUserPerMinute: { min: 1, max: 10_000_000 },
  perProjectPerMinute: { min: 1, max: 100_000_000 },
  clockOffsetMs: { min: -10 * 365 * 86_400_000, max: 10 * 365 * 86_400_000 },
  webhookTimeScale: { min: 1, max: 1_000_000_000 },
  webhookTimeoutMs: { min: 1, max: 120_000 },
};

/** Validates a partial update (from JSON); returns the error text for a bad field. */
export function parseControls(
  input: unknown,
): { ok: true; value: Partial<HealthControls> } | { ok: false; error: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, error: 'Body must be a JSON object' };
  }
  const value: Partial<HealthControls> = {};
  for (const [key, raw] of Object.entries(input)) {
    if (BOOLEAN.has(key as keyof HealthControls)) {
      if (typeof raw !== 'boolean') return { ok: false, error: `${key} must be a boolean` };
      value[key as BooleanKnob] = raw;
      continue;
    }
    const range = NUMERIC[key as keyof typeof NUMERIC];
    if (!range) return { ok: false, error: `Unknown field ${key}` };
    if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < range.min || raw > range.max) {
      return { ok: false, error: `${key} must be a number from ${range.min} to ${range.max}` };
    }
    value[key as keyof typeof NUMERIC] = raw;
  }
  return { ok: true, value };
}
