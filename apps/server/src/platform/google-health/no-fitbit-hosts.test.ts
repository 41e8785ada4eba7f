import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createGoogleHealthClient, isFitbitHost } from './client.js';

/**
 * Google switched the Fitbit Web API and Fitbit OAuth off on 2 Nov 2026: no code may
 * build a URL to a Fitbit host. User-facing route names such as `/fitbit/callback` are fine.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const SCANNED = ['apps/server/src', 'apps/web/src', 'packages'];
const FITBIT_HOST = /(?:^|[^a-z0-9.-])((?:[a-z0-9-]+\.)*fitbit\.com)(?![a-z0-9-])/gi;
const SELF = path.basename(fileURLToPath(import.meta.url));

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) {
      continue;
    }
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|js|mjs|json)$/.test(entry.name) && entry.name !== SELF) yield full;
  }
}

export function fitbitHostsIn(text: string): string[] {
  return [...text.matchAll(FITBIT_HOST)].map((m) => m[1] ?? '');
}

describe('no Fitbit hosts', () => {
  it('recognises the retired hosts in any spelling', () => {
    expect(fitbitHostsIn('fetch("https://api.fitbit.com/1/user/-/profile.json")')).toEqual([
      'api.fitbit.com',
    ]);
    expect(fitbitHostsIn("const u = 'https://www.fitbit.com/oauth2/authorize'")).toEqual([
      'www.fitbit.com',
    ]);
    expect(fitbitHostsIn('`//Fitbit.com/x`')).toEqual(['Fitbit.com']);
    expect(fitbitHostsIn('/fitbit/callback and fitbit.google.com and myfitbit.company')).toEqual(
      [],
    );
  });

  it('appear nowhere in the server, web or shared packages', async () => {
    const offenders: string[] = [];
    for (const dir of SCANNED) {
      for await (const file of sourceFiles(path.join(ROOT, dir))) {
        const hosts = fitbitHostsIn(await readFile(file, 'utf8'));
        if (hosts.length > 0) offenders.push(`${path.relative(ROOT, file)}: ${hosts.join(', ')}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('are refused at run time: a client pointed at one is never built', () => {
    expect(isFitbitHost('https://api.fitbit.com/1/user/-/profile.json')).toBe(true);
    expect(isFitbitHost('https://WWW.Fitbit.com./oauth2/authorize')).toBe(true);
    expect(isFitbitHost('https://health.googleapis.com')).toBe(false);
    expect(isFitbitHost('https://fitbit.google.com')).toBe(false);
    const endpoints = {
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      apiUrl: 'https://health.googleapis.com',
      clientId: 'id',
      clientSecret: 'secret',
    };
    expect(() => createGoogleHealthClient(endpoints)).not.toThrow();
    for (const key of ['authUrl', 'tokenUrl', 'revokeUrl', 'apiUrl'] as const) {
      const host = key === 'authUrl' ? 'https://www.fitbit.com' : 'https://api.fitbit.com';
      expect(() => createGoogleHealthClient({ ...endpoints, [key]: `${host}/x` }), key).toThrow(
        /Fitbit host/,
      );
    }
  });
});
