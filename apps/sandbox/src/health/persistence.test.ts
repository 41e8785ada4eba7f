import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.js';
import { api, connect } from '../test/health-flow.js';
import { CLIENT_ID, CLIENT_SECRET, postToken } from '../test/oidc-flow.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-health-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('health grants with a data directory', () => {
  it('keep tokens, Testing-mode expiry and revocations across a restart', async () => {
    const first = await startSandbox({
      httpPort: 0,
      smtpPort: 0,
      dataDir,
      google: { testingMode: true },
    });
    const kept = await connect(first, 'kept.person@example.test');
    const gone = await connect(first, 'gone.person@example.test');
    first.health.revoke('gone.person@example.test');
    await first.close();

    const second = await startSandbox({ httpPort: 0, smtpPort: 0, dataDir });
    try {
      expect((await api(second, kept.access_token, '/v4/users/me/identity')).status).toBe(200);
      expect((await api(second, gone.access_token, '/v4/users/me/identity')).status).toBe(401);
      const refresh = (token: string | undefined) =>
        postToken(second.health.urls.tokenUrl, {
          grant_type: 'refresh_token',
          refresh_token: token ?? '',
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
        });
      expect((await refresh(gone.refresh_token)).json.error).toBe('invalid_grant');
      const renewed = await refresh(kept.refresh_token);
      expect(renewed.status).toBe(200);
      // The 7-day limit was fixed at consent, so it still counts down after the restart.
      expect(renewed.json.refresh_token_expires_in).toBeLessThanOrEqual(604799);
      expect(second.health.connections('gone.person@example.test')[0]?.revokedAt).toBeTruthy();
    } finally {
      await second.close();
    }
  });
});
