import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../test/auth-helpers.js';
import { useTestApp } from '../test/test-app.js';
import { users } from './schema/index.js';
import { isUniqueViolation } from './unique-violation.js';

describe('isUniqueViolation', () => {
  const t = useTestApp({ withoutSandbox: true });

  /** What the database driver of this run actually throws, as Drizzle hands it over. */
  async function duplicateUserError(): Promise<unknown> {
    const email = uniqueEmail('dup');
    const row = { email, displayName: 'Dup' };
    await t.app.platform.db.insert(users).values(row);
    return t.app.platform.db
      .insert(users)
      .values(row)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
  }

  it('finds the violation under the error Drizzle wraps around the driver’s', async () => {
    const error = await duplicateUserError();
    expect(error).toBeDefined();
    // The code is not on the wrapper itself: looking only there is what answered 500.
    expect((error as { code?: string }).code).not.toBe('23505');
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
    expect(isUniqueViolation(error, 'studies_study_code_key')).toBe(false);
  });

  it('is false for other errors and for non-errors', () => {
    expect(isUniqueViolation(new Error('boom', { cause: { code: '23503' } }))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
