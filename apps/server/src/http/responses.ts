import { errorEnvelopeSchema } from '@research/contracts';

/** Response schemas for the error statuses a route can answer, for OpenAPI and serialization. */
export function errorResponses<S extends number>(
  ...statuses: S[]
): Record<S, typeof errorEnvelopeSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorEnvelopeSchema])) as Record<
    S,
    typeof errorEnvelopeSchema
  >;
}

/** Per-route limits on top of the global one, for calls that are costly or guessable. */
export const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
