import { describe, expect, it } from 'vitest';
import { healthResponseSchema, readinessResponseSchema } from './health.js';

describe('healthResponseSchema', () => {
  it('accepts only status ok', () => {
    expect(healthResponseSchema.parse({ status: 'ok' })).toEqual({ status: 'ok' });
    expect(healthResponseSchema.safeParse({ status: 'ready' }).success).toBe(false);
    expect(healthResponseSchema.safeParse({}).success).toBe(false);
  });
});

describe('readinessResponseSchema', () => {
  it('accepts ready and not_ready with both checks', () => {
    const ready = { status: 'ready', checks: { database: true, migrations: true } };
    const notReady = { status: 'not_ready', checks: { database: true, migrations: false } };
    expect(readinessResponseSchema.parse(ready)).toEqual(ready);
    expect(readinessResponseSchema.parse(notReady)).toEqual(notReady);
  });
  it('rejects other statuses and missing checks', () => {
    expect(
      readinessResponseSchema.safeParse({
        status: 'ok',
        checks: { database: true, migrations: true },
      }).success,
    ).toBe(false);
    expect(
      readinessResponseSchema.safeParse({ status: 'ready', checks: { database: true } }).success,
    ).toBe(false);
    expect(
      readinessResponseSchema.safeParse({
        status: 'ready',
        checks: { database: 'yes', migrations: true },
      }).success,
    ).toBe(false);
  });
});
