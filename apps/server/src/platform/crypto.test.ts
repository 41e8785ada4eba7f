import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createCipher,
  DecryptionError,
  hmacSign,
  hmacVerify,
  KEY_FILE_NAME,
  keyIdOf,
  keyRingFromKeys,
  loadEncryptionKeys,
  randomToken,
  sha256Hex,
} from './crypto.js';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'crypto-test-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const newKey = () => randomBytes(32).toString('base64');

describe('createCipher', () => {
  it('round-trips text, including unicode and empty strings', async () => {
    const cipher = createCipher(await loadEncryptionKeys({ encryptionKey: newKey(), dataDir }));
    for (const plaintext of ['ya29.access-token', '', 'Grüße 🚀 — 東京']) {
      const token = cipher.encrypt(plaintext);
      expect(token).toMatch(/^v1\.[\w-]{12}\.[\w-]+\.[\w-]+\.[\w-]*$/);
      expect(token).not.toContain(plaintext || 'never');
      expect(cipher.decrypt(token)).toBe(plaintext);
    }
  });

  it('uses a fresh IV for every encryption', async () => {
    const cipher = createCipher(await loadEncryptionKeys({ encryptionKey: newKey(), dataDir }));
    const tokens = new Set(Array.from({ length: 20 }, () => cipher.encrypt('same secret')));
    expect(tokens.size).toBe(20);
    const ivs = new Set([...tokens].map((token) => token.split('.')[2]));
    expect(ivs.size).toBe(20);
  });

  it('detects tampering with any part of the token', async () => {
    const cipher = createCipher(await loadEncryptionKeys({ encryptionKey: newKey(), dataDir }));
    const token = cipher.encrypt('refresh-token-value');
    const parts = token.split('.');
    const flip = (value: string) => {
      const bytes = Buffer.from(value, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      return bytes.toString('base64url');
    };
    for (const index of [2, 3, 4]) {
      const tampered = parts.map((part, i) => (i === index ? flip(part) : part)).join('.');
      expect(() => cipher.decrypt(tampered)).toThrow(DecryptionError);
    }
    expect(() => cipher.decrypt(`${token}x`)).toThrow(DecryptionError);
    expect(() => cipher.decrypt('not-a-token')).toThrow(DecryptionError);
    expect(() => cipher.decrypt(token.replace(/^v1/, 'v2'))).toThrow(DecryptionError);
  });

  it('binds a token to its associated data', async () => {
    const cipher = createCipher(await loadEncryptionKeys({ encryptionKey: newKey(), dataDir }));
    const token = cipher.encrypt('secret', 'wearable_connections.access_token');
    expect(cipher.decrypt(token, 'wearable_connections.access_token')).toBe('secret');
    expect(() => cipher.decrypt(token, 'studies.password')).toThrow(DecryptionError);
    expect(() => cipher.decrypt(token)).toThrow(DecryptionError);
  });

  it('rejects a token written with a key it does not hold', async () => {
    const a = createCipher(await loadEncryptionKeys({ encryptionKey: newKey(), dataDir }));
    const b = createCipher(await loadEncryptionKeys({ encryptionKey: newKey(), dataDir }));
    expect(() => b.decrypt(a.encrypt('secret'))).toThrow(/unknown key/);
  });

  it('rotates: new tokens use the new key, old tokens still decrypt via previousKeys', async () => {
    const oldKey = newKey();
    const oldCipher = createCipher(await loadEncryptionKeys({ encryptionKey: oldKey, dataDir }));
    const oldToken = oldCipher.encrypt('old secret');

    const currentKey = newKey();
    const ring = await loadEncryptionKeys({
      encryptionKey: currentKey,
      previousKeys: [oldKey],
      dataDir,
    });
    const cipher = createCipher(ring);
    expect(cipher.decrypt(oldToken)).toBe('old secret');
    const newToken = cipher.encrypt('new secret');
    expect(newToken.split('.')[1]).toBe(keyIdOf(Buffer.from(currentKey, 'base64')));
    expect(newToken.split('.')[1]).not.toBe(oldToken.split('.')[1]);
    expect(() => oldCipher.decrypt(newToken)).toThrow(DecryptionError);
  });

  it('works with a key ring built from raw keys', () => {
    const current = randomBytes(32);
    const previous = randomBytes(32);
    const old = createCipher(keyRingFromKeys(previous)).encrypt('x');
    expect(createCipher(keyRingFromKeys(current, previous)).decrypt(old)).toBe('x');
  });
});

describe('loadEncryptionKeys', () => {
  it('generates a key file once with mode 0600 and reuses it', async () => {
    const first = await loadEncryptionKeys({ dataDir });
    const path = join(dataDir, KEY_FILE_NAME);
    const info = await stat(path);
    expect(info.mode & 0o777).toBe(0o600);
    const content = await readFile(path, 'utf8');
    expect(Buffer.from(content.trim(), 'base64')).toHaveLength(32);

    const token = createCipher(first).encrypt('persisted secret');
    const second = await loadEncryptionKeys({ dataDir });
    expect(second.currentKeyId).toBe(first.currentKeyId);
    expect(await readFile(path, 'utf8')).toBe(content);
    expect(createCipher(second).decrypt(token)).toBe('persisted secret');
  });

  it('creates the data directory when needed and survives concurrent first starts', async () => {
    const nested = join(dataDir, 'a', 'b');
    const rings = await Promise.all(
      Array.from({ length: 5 }, () => loadEncryptionKeys({ dataDir: nested })),
    );
    expect(new Set(rings.map((ring) => ring.currentKeyId)).size).toBe(1);
  });

  it('keeps secrets from the generated key readable after a key is configured', async () => {
    const generated = createCipher(await loadEncryptionKeys({ dataDir }));
    const token = generated.encrypt('from the local default');
    const configured = createCipher(await loadEncryptionKeys({ encryptionKey: newKey(), dataDir }));
    expect(configured.decrypt(token)).toBe('from the local default');
    expect(configured.encrypt('x').split('.')[1]).not.toBe(token.split('.')[1]);
  });

  it('does not write a key file when a key is configured', async () => {
    await loadEncryptionKeys({ encryptionKey: newKey(), dataDir });
    await expect(stat(join(dataDir, KEY_FILE_NAME))).rejects.toThrow(/ENOENT/);
  });

  it('rejects a key of the wrong length or encoding with a clear message', async () => {
    await expect(
      loadEncryptionKeys({ encryptionKey: randomBytes(16).toString('base64'), dataDir }),
    ).rejects.toThrow(
      'ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes (decoded to 16 bytes)',
    );
    await expect(
      loadEncryptionKeys({ encryptionKey: 'not base64 at all!', dataDir }),
    ).rejects.toThrow(/ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes/);
    await expect(
      loadEncryptionKeys({ encryptionKey: newKey(), previousKeys: ['short'], dataDir }),
    ).rejects.toThrow(/Previous encryption key #1 must be the base64 encoding/);
  });

  it('refuses to replace a damaged key file', async () => {
    await loadEncryptionKeys({ dataDir });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dataDir, KEY_FILE_NAME), 'garbage');
    await expect(loadEncryptionKeys({ dataDir })).rejects.toThrow(/key file .* must be the base64/);
  });
});

describe('helpers', () => {
  it('signs and verifies with HMAC in constant time', () => {
    const key = randomBytes(32);
    const signature = hmacSign(key, 'bucket\nkey\n123');
    expect(hmacVerify(key, 'bucket\nkey\n123', signature)).toBe(true);
    expect(hmacVerify(key, 'bucket\nkey\n124', signature)).toBe(false);
    expect(hmacVerify(randomBytes(32), 'bucket\nkey\n123', signature)).toBe(false);
    expect(hmacVerify(key, 'bucket\nkey\n123', signature.slice(1))).toBe(false);
    expect(hmacVerify(key, 'bucket\nkey\n123', '')).toBe(false);
  });

  it('makes random URL-safe tokens and SHA-256 hex digests', () => {
    expect(randomToken()).toMatch(/^[\w-]{43}$/);
    expect(randomToken(16)).toMatch(/^[\w-]{22}$/);
    expect(randomToken()).not.toBe(randomToken());
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
