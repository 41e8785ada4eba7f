import { describe, expect, it } from 'vitest';
import { formTargetFor, PAGE_CSP, pageCsp } from './html.js';
import { cspProblems } from './test/csp.js';

describe('sandbox page CSP', () => {
  it('the checker refuses what browsers refuse', () => {
    expect(cspProblems("form-action 'self' http://[::1]:*")).toEqual([
      'form-action: invalid source http://[::1]:*',
    ]);
    expect(cspProblems("img-src 'self' 'none'")).toEqual(["img-src: 'none' with other sources"]);
    expect(cspProblems("default-src 'none'; connect-src 'self' http://localhost:* https:")).toEqual(
      [],
    );
  });

  it('the shared policy has only valid sources', () => {
    expect(cspProblems(PAGE_CSP)).toEqual([]);
    expect(PAGE_CSP).toContain("form-action 'self';");
  });

  it.each([
    ['http://[::1]:5173/auth/google/callback', 'http:'],
    ['http://[::1]/callback', 'http:'],
    ['https://[2001:db8::1]:8443/cb', 'https:'],
    ['http://127.0.0.1:4300/auth/google/callback', 'http://127.0.0.1:4300'],
    ['http://localhost:5173/auth/google/callback', 'http://localhost:5173'],
    ['https://app.example.org/cb?x=1', 'https://app.example.org'],
  ])('a form may post on to %s as %s, in a valid policy', (redirectUri, target) => {
    expect(formTargetFor(redirectUri)).toBe(target);
    const policy = pageCsp([formTargetFor(redirectUri)]);
    expect(cspProblems(policy)).toEqual([]);
    expect(policy).toContain(`form-action 'self' ${target};`);
  });

  it("a redirect URI that is no URL adds no target (not 'self' 'none')", () => {
    expect(formTargetFor('not a url')).toBe("'none'");
    const policy = pageCsp([formTargetFor('not a url')]);
    expect(cspProblems(policy)).toEqual([]);
    expect(policy).toContain("form-action 'self';");
  });

  it('never names an IPv6 literal, with or without a port wildcard', () => {
    const policy = pageCsp(['http://[::1]:5173/cb', 'http://localhost:3000/cb'].map(formTargetFor));
    expect(policy).not.toContain('[');
    expect(cspProblems(policy)).toEqual([]);
  });
});
