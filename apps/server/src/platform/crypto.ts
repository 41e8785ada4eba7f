import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files.js';

/** Name of the key file generated into the data directory when no key is configured. */
export const KEY_FILE_NAME = 'encryption.key';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT_VERSION = 'v1';

export interface KeyRing {
  /** Id of the key new ciphertexts are written with. */
  readonly currentKeyId: string;
  /** Every key that may still decrypt, by id (the current key included). */
  readonly keys: ReadonlyMap<string, Buffer>;
}

export interface LoadEncryptionKeysOptions {
  /** Base64 of 32 bytes (ENCRYPTION_KEY). When absent a key is generated into `dataDir`. */
  encryptionKey?: string | undefined;
  /** Retired keys (base64 of 32 bytes each) kept so older ciphertexts still decrypt. */
  previousKeys?: readonly string[] | undefined;
  dataDir: string;
}

export interface Cipher {
  /**
   * `associatedData` binds a ciphertext to its purpose (e.g. `wearable_connections.access_token`):
   * a token copied into another column then fails to decrypt instead of being accepted.
   */
  encrypt(plaintext: string, associatedData?: string): string;
  decrypt(token: string, associatedData?: string): string;
}

export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

function decodeKey(value: string, label: string): Buffer {
  const trimmed = value.trim();
  // Buffer.from silently skips invalid characters, so a typo would otherwise yield a wrong key.
  const bytes = BASE64.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (bytes.length !== KEY_BYTES) {
    throw new Error(
      `${label} must be the base64 encoding of exactly ${KEY_BYTES} bytes (decoded to ${bytes.length} bytes); generate one with: openssl rand -base64 32`,
    );
  }
  return bytes;
}

/**
 * A short, stable id per key so a ciphertext names the key it needs. Derived by a labelled
 * SHA-256 so ids are the same on every machine holding the key and reveal nothing usable.
 */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256')
    .update('research-platform/key-id/v1\0')
    .update(key)
    .digest('base64url')
    .slice(0, 12);
}

/**
 * Creates the key file without ever exposing a half-written file: the key is written to a
 * private temp file and hard-linked into place, which fails if another process (server and
 * worker starting together) won the race — then its key is used.
 */
async function readOrCreateKeyFile(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, KEY_FILE_NAME);
  const existing = await readKeyFile(path);
  if (existing) return existing;
  await ensurePrivateDir(dataDir);
  const tmp = join(dataDir, `.${KEY_FILE_NAME}.${process.pid}.${randomToken(6)}.tmp`);
  await writeFile(tmp, `${randomBytes(KEY_BYTES).toString('base64')}\n`, {
    mode: PRIVATE_FILE_MODE,
    flag: 'wx',
  });
  try {
    await link(tmp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(tmp);
  }
  const created = await readKeyFile(path);
  if (!created) throw new Error(`Could not create the encryption key file ${path}`);
  return created;
}

async function readKeyFile(path: string): Promise<Buffer | undefined> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // Never regenerate over a damaged file: that would make every stored secret unreadable.
  return decodeKey(content, `The key file ${path}`);
}

/**
 * Loads the keys for secrets at rest. With `encryptionKey` set, that key encrypts; a key file
 * generated earlier in `dataDir` still decrypts, so moving from the local default to a
 * configured key keeps existing secrets readable. Without it, the generated key file is used
 * (created on first start with mode 0600).
 */
export async function loadEncryptionKeys(options: LoadEncryptionKeysOptions): Promise<KeyRing> {
  const keys = new Map<string, Buffer>();
  let current: Buffer;
  if (options.encryptionKey !== undefined && options.encryptionKey.trim() !== '') {
    current = decodeKey(options.encryptionKey, 'ENCRYPTION_KEY');
    const fileKey = await readKeyFile(join(options.dataDir, KEY_FILE_NAME));
    if (fileKey) keys.set(keyIdOf(fileKey), fileKey);
  } else {
    current = await readOrCreateKeyFile(options.dataDir);
  }
  (options.previousKeys ?? []).forEach((value, index) => {
    const key = decodeKey(value, `Previous encryption key #${index + 1}`);
    keys.set(keyIdOf(key), key);
  });
  const currentKeyId = keyIdOf(current);
  keys.set(currentKeyId, current);
  return { currentKeyId, keys };
}

/** Builds a key ring from raw keys, the first being current (tests, tooling). */
export function keyRingFromKeys(current: Buffer, ...previous: Buffer[]): KeyRing {
  const keys = new Map<string, Buffer>();
  for (const key of [...previous, current]) {
    if (key.length !== KEY_BYTES) throw new Error(`An encryption key must be ${KEY_BYTES} bytes`);
    keys.set(keyIdOf(key), key);
  }
  return { currentKeyId: keyIdOf(current), keys };
}

function additionalData(keyId: string, associatedData: string | undefined): Buffer {
  // The header is authenticated too, so a token cannot be re-labelled without detection.
  return Buffer.from(`${FORMAT_VERSION}.${keyId}\0${associatedData ?? ''}`, 'utf8');
}

/**
 * AES-256-GCM envelope: `v1.<keyId>.<iv>.<tag>.<ciphertext>`, each part base64url. Encrypts
 * with the current key; decrypts with whichever key of the ring the token names.
 */
export function createCipher(keyRing: KeyRing): Cipher {
  const currentKey = keyRing.keys.get(keyRing.currentKeyId);
  if (!currentKey) throw new Error('The key ring does not hold its current key');

  return {
    encrypt(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', currentKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(additionalData(keyRing.currentKeyId, associatedData));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        FORMAT_VERSION,
        keyRing.currentKeyId,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        ciphertext.toString('base64url'),
      ].join('.');
    },

    decrypt(token, associatedData) {
      const parts = token.split('.');
      if (parts.length !== 5 || parts[0] !== FORMAT_VERSION) {
        throw new DecryptionError('Not an encrypted value of a known format');
      }
      const [, keyId = '', ivPart = '', tagPart = '', dataPart = ''] = parts;
      const key = keyRing.keys.get(keyId);
      if (!key) {
        throw new DecryptionError(
          `The value was encrypted with an unknown key (${keyId}); add that key to the previous keys`,
        );
      }
      const iv = Buffer.from(ivPart, 'base64url');
      const tag = Buffer.from(tagPart, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
        throw new DecryptionError('The encrypted value is malformed');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(additionalData(keyId, associatedData));
        decipher.setAuthTag(tag);
        return Buffer.concat([
          decipher.update(Buffer.from(dataPart, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new DecryptionError('The encrypted value was tampered with or belongs elsewhere');
      }
    },
  };
}

/** HMAC-SHA256 of `data`, base64url. */
export function hmacSign(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data, 'utf8').digest('base64url');
}

/** Constant-time check of an `hmacSign` signature. */
export function hmacVerify(key: Buffer, data: string, signature: string): boolean {
  const expected = Buffer.from(hmacSign(key, data), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A key for one purpose, derived from the current encryption key (rotates with it). */
export function subkey(keyRing: KeyRing, purpose: string): Buffer {
  const current = keyRing.keys.get(keyRing.currentKeyId);
  if (!current) throw new Error('current encryption key missing from key ring');
  return Buffer.from(hkdfSync('sha256', current, Buffer.alloc(0), purpose, 32));
}

/** A random URL-safe token of `bytes` random bytes (session tokens, OAuth state, ...). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
