import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { Clock } from './clock.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

/**
 * The Cloud project's service account: the identity that manages webhook subscribers. The sandbox
 * issues one key and hands it out as the JSON key file Google's console downloads; a client signs
 * an RS256 JWT with it and trades it at the token endpoint (the JWT-bearer grant) for an hour's
 * access token.
 */

const KEY_FILE = 'health-service-account.json';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google's own token endpoint: what google-auth-library puts in `aud` whatever the key file says. */
const GOOGLE_TOKEN_URLS = [
  'https://oauth2.googleapis.com/token',
  'https://www.googleapis.com/oauth2/v4/token',
  'https://accounts.google.com/o/oauth2/token',
];
const ACCESS_TOKEN_SECONDS = 3600;
/** Google refuses assertions that live longer than an hour. */
const MAX_ASSERTION_SECONDS = 3600;
const MAX_TOKENS = 5_000;

export interface CloudProject {
  /** The number in resource names such as `projects/{number}/subscribers/…`. */
  number: string;
  /** The readable id (which the subscriber paths do not accept). */
  id: string;
}

/** Google's service-account key file, pointed at the sandbox. */
export interface ServiceAccountKeyFile {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
  universe_domain: 'googleapis.com';
}

interface PersistedKey {
  privateKeyId: string;
  privateKey: string;
  clientId: string;
}

export interface ServiceAccountToken {
  email: string;
  scopes: string[];
  expiresAt: number;
}

type Exchange =
  | { ok: true; body: { access_token: string; expires_in: number; token_type: 'Bearer' } }
  | { ok: false; status: number; error: string; description: string };

function digits(count: number): string {
  let out = '1';
  for (const byte of randomBytes(count)) {
    if (out.length === count) break;
    out += (byte % 10).toString();
  }
  return out;
}

export class ServiceAccount {
  readonly email: string;
  private readonly privateKeyId: string;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly clientId: string;
  private readonly tokens = new Map<string, ServiceAccountToken>();

  constructor(
    readonly project: CloudProject,
    private readonly clock: Clock,
    dataDir: string | undefined,
  ) {
    this.email = `health-webhooks@${project.id}.iam.gserviceaccount.com`;
    let stored = readJsonFile<PersistedKey>(dataDir, KEY_FILE);
    if (!stored?.privateKey || !stored.privateKeyId || !stored.clientId) {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      stored = {
        privateKeyId: randomBytes(20).toString('hex'),
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        clientId: digits(21),
      };
      writeJsonFile(dataDir, KEY_FILE, stored);
    }
    this.privateKeyId = stored.privateKeyId;
    this.privateKey = createPrivateKey(stored.privateKey);
    this.publicKey = createPublicKey(this.privateKey);
    this.clientId = stored.clientId;
  }

  /** The key file, with `token_uri` and `auth_uri` at the sandbox. Holds the private key. */
  keyFile(issuer: string): ServiceAccountKeyFile {
    return {
      type: 'service_account',
      project_id: this.project.id,
      private_key_id: this.privateKeyId,
      private_key: this.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: this.email,
      client_id: this.clientId,
      auth_uri: `${issuer}/o/oauth2/v2/auth`,
      token_uri: `${issuer}/token`,
      universe_domain: 'googleapis.com',
    };
  }

  /**
   * The JWT-bearer grant: checks the assertion's signature, issuer, audience, lifetime and scope.
   * Its times are accepted against the real clock or the sandbox's shifted one: clients sign with
   * their own clock, which is the real one unless they share the sandbox's.
   */
  async exchange(assertion: string | undefined, tokenUrl: string): Promise<Exchange> {
    const refuse = (description: string, error = 'invalid_grant'): Exchange => ({
      ok: false,
      status: 400,
      error,
      description,
    });
    if (!assertion) {
      return refuse('Missing required parameter: assertion', 'invalid_request');
    }
    let payload: Record<string, unknown> | null = null;
    let failure: unknown;
    for (const now of new Set([Date.now(), this.clock.now()])) {
      try {
        const verified = await jwtVerify(assertion, this.publicKey, {
          algorithms: ['RS256'],
          currentDate: new Date(now),
          clockTolerance: 60,
        });
        payload = verified.payload as Record<string, unknown>;
        break;
      } catch (error) {
        failure = error;
      }
    }
    if (!payload) {
      if (
        failure instanceof joseErrors.JWSSignatureVerificationFailed ||
        failure instanceof joseErrors.JWSInvalid ||
        failure instanceof joseErrors.JWTInvalid ||
        failure instanceof joseErrors.JOSEAlgNotAllowed
      ) {
        return refuse('Invalid JWT Signature.');
      }
      return refuse(
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    }
    if (payload.iss !== this.email) return refuse('Invalid grant: account not found');
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.some((a) => a === tokenUrl || GOOGLE_TOKEN_URLS.includes(String(a)))) {
      return refuse('Invalid JWT: Failed audience check.');
    }
    const iat = typeof payload.iat === 'number' ? payload.iat : null;
    const exp = typeof payload.exp === 'number' ? payload.exp : null;
    if (iat === null || exp === null || exp - iat > MAX_ASSERTION_SECONDS || exp <= iat) {
      return refuse(
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(/\s+/) : [];
    if (!scopes.some(Boolean)) {
      return refuse('Invalid OAuth scope or ID token audience provided.', 'invalid_scope');
    }
    const token = `ya29.sandbox-sa.${randomBytes(32).toString('base64url')}`;
    this.tokens.set(token, {
      email: this.email,
      scopes: scopes.filter(Boolean),
      expiresAt: this.clock.now() + ACCESS_TOKEN_SECONDS * 1000,
    });
    for (const key of this.tokens.keys()) {
      if (this.tokens.size <= MAX_TOKENS) break;
      this.tokens.delete(key);
    }
    return {
      ok: true,
      body: { access_token: token, expires_in: ACCESS_TOKEN_SECONDS - 1, token_type: 'Bearer' },
    };
  }

  lookup(token: string): ServiceAccountToken | null {
    const found = this.tokens.get(token);
    if (!found || found.expiresAt <= this.clock.now()) return null;
    return found;
  }
}
