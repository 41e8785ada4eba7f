import { AUTH_SERVER_MESSAGES } from '@research/contracts';
import type { Db } from '../../db/client.js';
import { tooManyRequests } from '../../errors.js';
import { sha256Hex } from '../../platform/crypto.js';
import * as repo from './auth.repository.js';
import { MINUTE, type RequestContext } from './auth-deps.js';

type AttemptScope = repo.AttemptScope;

/** Sign-in attempts are counted in fixed windows of this length. */
export const THROTTLE_WINDOW_MS = 15 * MINUTE;
/**
 * Refusing limits per window: an (account, client address) pair, and one address across
 * accounts. Neither can be driven by someone elsewhere, so guessing never locks the owner out
 * from their own address.
 */
export const SIGN_IN_LIMITS = { pair: 5, address: 20 } as const;
/**
 * Past this many attempts on one account in a window (guessing spread over many addresses) the
 * account only slows down: each address may try it once per cooldown from the start of its own
 * window. An address that has not tried the account yet is never refused, so the owner still
 * signs in; an address already guessing gets fewer tries than the pair limit allows.
 */
export const SIGN_IN_ACCOUNT_CEILING = 50;
export const SIGN_IN_SLOW_COOLDOWN_MS = 5 * MINUTE;

export interface SignInKeys {
  pair: string;
  address: string;
  account: string;
}

/** The counters one attempt at `email` from the request's address is counted against (hashed). */
export const signInKeysOf = (email: string, ctx: RequestContext): SignInKeys => ({
  pair: sha256Hex(`pair:${email}\n${ctx.ip}`),
  address: sha256Hex(`address:${ctx.ip}`),
  account: sha256Hex(`account:${email}`),
});

const refuseFor = (waitMs: number) => {
  const minutes = Math.max(1, Math.ceil(waitMs / MINUTE));
  return tooManyRequests(AUTH_SERVER_MESSAGES.tooManySignInAttempts(minutes), 'TOO_MANY_ATTEMPTS');
};

/**
 * Counts this attempt against the pair, the address and the account before any password is
 * checked (so parallel attempts each get their own number), and refuses it when the pair or
 * the address is over its limit, or when the account is over its ceiling and this address has
 * tried it too recently.
 */
export async function countSignInAttempt(db: Db, keys: SignInKeys) {
  const now = new Date();
  const count = (scope: AttemptScope) =>
    repo.countSignInAttempt(db, scope, keys[scope], THROTTLE_WINDOW_MS, now);
  const windowEnd = (startedAt: Date) => startedAt.getTime() + THROTTLE_WINDOW_MS - now.getTime();

  const pair = await count('pair');
  if (pair.attempts > SIGN_IN_LIMITS.pair) throw refuseFor(windowEnd(pair.windowStartedAt));
  const address = await count('address');
  if (address.attempts > SIGN_IN_LIMITS.address)
    throw refuseFor(windowEnd(address.windowStartedAt));
  const account = await count('account');
  if (account.attempts <= SIGN_IN_ACCOUNT_CEILING) return;
  // The n-th attempt of this pair in its window may come (n - 1) cooldowns after it started,
  // and at the latest when a new window starts the count afresh.
  const started = pair.windowStartedAt.getTime();
  const dueAt = Math.min(
    started + (pair.attempts - 1) * SIGN_IN_SLOW_COOLDOWN_MS,
    started + THROTTLE_WINDOW_MS,
  );
  if (dueAt > now.getTime()) {
    // Not tried, so not counted: waiting the time we name is enough to get the next try.
    await repo.uncountSignInAttempt(db, keys);
    throw refuseFor(dueAt - now.getTime());
  }
}
