import type { UserProfile } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { makeProfile, makeUser } from '../../test/fake-api';
import {
  afterSignIn,
  applicationStatusTarget,
  dashboardTarget,
  registerEntryTarget,
} from './routing';

const user = makeUser({ displayName: 'Ada Lovelace' });

const profile = (overrides: Partial<UserProfile>) =>
  makeProfile({ lastName: 'Lovelace', ...overrides });

const master = profile({ id: 'master', role: 'master', status: 'approved', isMasterAccount: true });

describe('/dashboard redirect', () => {
  it.each([
    ['signed out', null, null, '/researcher/auth'],
    ['master', user, master, '/master/dashboard'],
    [
      'researcher flagged as master account',
      user,
      profile({ isMasterAccount: true }),
      '/master/dashboard',
    ],
    ['approved researcher', user, profile({ status: 'approved' }), '/researcher/dashboard'],
    ['pending researcher', user, profile({ status: 'pending' }), '/researcher/application-status'],
    [
      'rejected researcher',
      user,
      profile({ status: 'rejected' }),
      '/researcher/application-status',
    ],
    ['researcher without profile', user, profile({ status: 'noprofile' }), '/researcher/register'],
    ['signed in, profile missing', user, null, '/researcher/register'],
  ] as const)('%s → %s', (_, who, prof, target) => {
    expect(dashboardTarget(who, prof)).toBe(target);
  });
});

describe('register entry redirects', () => {
  it.each([
    [master, '/master/dashboard'],
    [profile({ status: 'approved' }), '/researcher/dashboard'],
    [profile({ status: 'pending' }), '/researcher/application-status'],
    [profile({ status: 'rejected' }), null],
    [profile({ status: 'noprofile' }), null],
    [null, null],
  ] as const)('%# → %s', (prof, target) => {
    expect(registerEntryTarget(prof)).toBe(target);
  });
});

describe('application-status entry redirects', () => {
  it.each([
    [master, '/master/dashboard'],
    [profile({ status: 'approved' }), '/researcher/dashboard'],
    [profile({ status: 'noprofile' }), '/researcher/register'],
    [null, '/researcher/register'],
    [profile({ status: 'pending' }), null],
    [profile({ status: 'rejected' }), null],
  ] as const)('%# → %s', (prof, target) => {
    expect(applicationStatusTarget(prof)).toBe(target);
  });
});

describe('afterSignIn', () => {
  it('returns to the page the guard came from, else to /dashboard', () => {
    expect(afterSignIn({ from: '/researcher/dashboard?code=ABC234&password=pw' })).toBe(
      '/researcher/dashboard?code=ABC234&password=pw',
    );
    expect(afterSignIn(null)).toBe('/dashboard');
    expect(afterSignIn({})).toBe('/dashboard');
    // Only same-site paths: never another host.
    expect(afterSignIn({ from: '//evil.example/x' })).toBe('/dashboard');
    expect(afterSignIn({ from: 'https://evil.example' })).toBe('/dashboard');
  });
});
