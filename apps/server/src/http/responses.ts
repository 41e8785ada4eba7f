/** Per-route limits on top of the global one, for calls that are costly or guessable. */
export const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
