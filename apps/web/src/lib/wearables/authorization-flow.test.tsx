import { afterEach, describe, expect, it, vi } from 'vitest';
import { startAuthorization } from './authorization-flow';

/** Records the auth-url request the flow makes and answers a consent address. */
function recordAuthUrlCall() {
  const seen: { url: URL; headers: Headers }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({
      url: new URL(String(input), 'http://localhost'),
      headers: new Headers(init?.headers),
    });
    return Response.json({
      success: true,
      authUrl: 'https://accounts.example/o/oauth2/v2/auth?state=s',
      expiresAt: '2026-01-01T00:10:00.000Z',
    });
  });
  return seen;
}

const who = { participantId: 'P0123456789abcdef', email: 'sam@example.org', studyCode: 'ABC123' };

describe('startAuthorization', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('sends the participant session of the enrolment, which a first connection needs', async () => {
    const seen = recordAuthUrlCall();
    await startAuthorization({ ...who, mode: 'popup', session: 'the-session' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url.pathname).toBe('/api/fitbit/auth-url');
    expect(seen[0]?.headers.get('x-participant-session')).toBe('the-session');
    expect(seen[0]?.url.searchParams.get('studyCode')).toBe('ABC123');
  });

  it('reauthorizes with e-mail and study code only when there is no session', async () => {
    const seen = recordAuthUrlCall();
    await startAuthorization({ ...who, mode: 'redirect' });
    expect(seen[0]?.headers.has('x-participant-session')).toBe(false);
    expect(seen[0]?.headers.has('authorization')).toBe(false);
    expect(Object.fromEntries(seen[0]?.url.searchParams ?? [])).toMatchObject({
      participantId: who.participantId,
      email: who.email,
      studyCode: who.studyCode,
    });
  });
});
