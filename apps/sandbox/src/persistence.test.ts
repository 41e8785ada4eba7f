import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from './index.js';
import { MAX_MESSAGES, MessageStore } from './store.js';
import {
  authorizeUrl,
  CLIENT_ID,
  CLIENT_SECRET,
  choose,
  codeExchange,
  openAuthorizePage,
  postToken,
} from './test/oidc-flow.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('persistence with a data directory', () => {
  it('keeps the inbox, the signing key and OAuth grants across a restart', async () => {
    const dataDir = tempDir();
    const first = await startSandbox({ httpPort: 0, smtpPort: 0, dataDir });
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: first.smtpPort, ignoreTLS: true })
      .sendMail({
        from: 'a@research.test',
        to: 'keep@example.test',
        subject: 'Kept',
        text: 'still here',
      });
    const idToken = await first.mintIdToken({ sub: 'abc' });
    const { requestId } = await openAuthorizePage(
      authorizeUrl(`${first.issuer}/o/oauth2/v2/auth`, { access_type: 'offline' }),
    );
    const chosen = await choose(first.issuer, {
      request: requestId,
      account: 'sam.chen@gmail.test',
    });
    const tokens = await postToken(
      `${first.issuer}/token`,
      codeExchange(chosen.location?.searchParams.get('code') ?? ''),
    );
    await first.close();

    const second = await startSandbox({ httpPort: 0, smtpPort: 0, dataDir });
    try {
      const response = await fetch(`${second.httpUrl}/inbox/messages.json?to=keep@example.test`);
      const { messages } = (await response.json()) as { messages: { subject: string }[] };
      expect(messages.map((m) => m.subject)).toEqual(['Kept']);

      // An ID token issued before the restart still verifies against the new process's JWKS.
      const jwks = (await (
        await fetch(`${second.issuer}/oauth2/v3/certs`)
      ).json()) as JSONWebKeySet;
      await expect(jwtVerify(idToken, createLocalJWKSet(jwks))).resolves.toBeTruthy();

      const userinfo = await fetch(`${second.issuer}/v1/userinfo`, {
        headers: { authorization: `Bearer ${String(tokens.json.access_token)}` },
      });
      expect(userinfo.status).toBe(200);
      const refreshed = await postToken(`${second.issuer}/token`, {
        grant_type: 'refresh_token',
        refresh_token: String(tokens.json.refresh_token),
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
      });
      expect(refreshed.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('starts afresh without a data directory', async () => {
    const sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
    try {
      expect(sandbox.messages()).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});

describe('message store bounds', () => {
  it('keeps the newest 500 in memory and on disk', () => {
    const dataDir = tempDir();
    const store = new MessageStore(dataDir);
    for (let i = 0; i < MAX_MESSAGES * 2 + 10; i++) {
      store.add({
        channel: 'sms',
        to: '+14155550100',
        from: 'x',
        subject: null,
        text: `#${i}`,
        html: null,
      });
    }
    expect(store.list()).toHaveLength(MAX_MESSAGES);
    expect(store.list()[0]?.text).toBe(`#${MAX_MESSAGES * 2 + 9}`);
    const lines = readFileSync(join(dataDir, 'inbox.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThan(MAX_MESSAGES * 2);

    const reloaded = new MessageStore(dataDir);
    expect(reloaded.list()).toHaveLength(MAX_MESSAGES);
    expect(reloaded.list()[0]?.text).toBe(`#${MAX_MESSAGES * 2 + 9}`);
    expect(reloaded.list().at(-1)?.text).toBe(`#${MAX_MESSAGES + 10}`);
  });
});
