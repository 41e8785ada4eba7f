import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
} from 'jose';

const KEY_FILE = 'oidc-signing-key.json';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  /** Public half as published in the JWKS. */
  publicJwk: JWK;
}

async function generate(): Promise<{ key: SigningKey; privateJwk: JWK }> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(privateJwk);
  return { key: await fromPrivateJwk({ ...privateJwk, kid }), privateJwk: { ...privateJwk, kid } };
}

async function fromPrivateJwk(jwk: JWK): Promise<SigningKey> {
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e || !jwk.d || !jwk.kid) {
    throw new Error('The stored OIDC signing key is not an RSA private JWK with a kid');
  }
  const privateKey = (await importJWK(jwk, 'RS256')) as CryptoKey;
  return {
    kid: jwk.kid,
    privateKey,
    publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e, kid: jwk.kid, alg: 'RS256', use: 'sig' },
  };
}

/**
 * The issuer's RS256 key. With a data directory it is kept on disk (mode 600) so ID tokens and the
 * JWKS cached by relying parties stay valid across restarts.
 */
export async function loadOrCreateSigningKey(dataDir?: string): Promise<SigningKey> {
  if (!dataDir) return (await generate()).key;
  const file = join(dataDir, KEY_FILE);
  let stored: string | undefined;
  try {
    stored = readFileSync(file, 'utf8');
  } catch {
    stored = undefined;
  }
  if (stored !== undefined) return fromPrivateJwk(JSON.parse(stored) as JWK);
  const { key, privateJwk } = await generate();
  mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(privateJwk), { mode: 0o600 });
  renameSync(tmp, file);
  return key;
}

/** A key nobody trusts, for tests that must see a forged ID token rejected. */
export async function createForeignKey(): Promise<SigningKey> {
  return (await generate()).key;
}
