import { verify } from 'node:crypto';
import {
  KeysetError,
  parseTinkKeyset,
  splitTinkSignature,
  type VerificationKey,
} from './tink-keyset.js';

/** Why a signature was not accepted; `keyset_unavailable` is ours, not the sender's. */
export type SignatureRefusal =
  | 'missing_signature'
  | 'malformed_signature'
  | 'unknown_key'
  | 'bad_signature'
  | 'keyset_unavailable';

export type SignatureCheck = { ok: true } | { ok: false; reason: SignatureRefusal };

export interface KeysetVerifierOptions {
  url: string;
  /** Keys are read again after this long, so a withdrawn key stops being accepted. */
  maxAgeMs?: number;
  /**
   * An unknown key id reads the keyset again (Google rotates keys) at most this often: a flood
   * of made-up ids cannot turn into a flood of requests to the keyset's host.
   */
  minRefetchMs?: number;
  /** How long a key id the fresh keyset did not hold is refused without asking again. */
  unknownKeyMemoryMs?: number;
  fetchTimeoutMs?: number;
  now?: () => number;
  onFetchError?: (error: Error) => void;
}

const MAX_KEYSET_BYTES = 64 * 1024;
/** Key ids remembered as unknown, at most (a flood of random ids must not grow memory). */
const MAX_REMEMBERED_UNKNOWN = 1024;

/**
 * Checks Tink signatures over raw bodies against a public keyset read from a URL, kept in
 * memory. One read at a time: requests that need the keyset while it is being read wait for
 * that read instead of starting their own.
 */
export function createKeysetVerifier(options: KeysetVerifierOptions) {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? 60 * 60 * 1000;
  const minRefetchMs = options.minRefetchMs ?? 10_000;
  const unknownKeyMemoryMs = options.unknownKeyMemoryMs ?? 10 * 60 * 1000;
  let keys: Map<number, VerificationKey> | null = null;
  let fetchedAt = 0;
  let lastAttemptAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | null = null;
  let fetchCount = 0;
  const unknown = new Map<number, number>();

  async function fetchKeyset(): Promise<void> {
    fetchCount++;
    lastAttemptAt = now();
    const response = await fetch(options.url, {
      signal: AbortSignal.timeout(options.fetchTimeoutMs ?? 5_000),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new KeysetError(`keyset answered ${response.status}`);
    const text = await response.text();
    if (text.length > MAX_KEYSET_BYTES) throw new KeysetError('keyset too large');
    keys = parseTinkKeyset(JSON.parse(text));
    fetchedAt = now();
    unknown.clear();
  }

  /** Reads the keyset (or joins the read under way); a failure keeps the keys held so far. */
  function refresh(): Promise<void> {
    inFlight ??= fetchKeyset()
      .catch((error: Error) => options.onFetchError?.(error))
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  async function keyFor(keyId: number): Promise<VerificationKey | 'unknown' | 'unavailable'> {
    if (!keys || now() - fetchedAt > maxAgeMs) {
      if (now() - lastAttemptAt >= minRefetchMs || !keys) await refresh();
    }
    if (!keys) return 'unavailable';
    const known = keys.get(keyId);
    if (known) return known;
    const rememberedAt = unknown.get(keyId);
    if (rememberedAt !== undefined && now() - rememberedAt < unknownKeyMemoryMs) return 'unknown';
    if (now() - lastAttemptAt >= minRefetchMs) {
      await refresh();
      const fresh = keys?.get(keyId);
      if (fresh) return fresh;
      if (unknown.size >= MAX_REMEMBERED_UNKNOWN) unknown.clear();
      unknown.set(keyId, now());
    }
    return 'unknown';
  }

  return {
    async check(body: Buffer, header: string | undefined): Promise<SignatureCheck> {
      if (!header) return { ok: false, reason: 'missing_signature' };
      const parts = splitTinkSignature(header);
      if (!parts) return { ok: false, reason: 'malformed_signature' };
      const found = await keyFor(parts.keyId);
      if (found === 'unavailable') return { ok: false, reason: 'keyset_unavailable' };
      if (found === 'unknown') return { ok: false, reason: 'unknown_key' };
      let valid = false;
      try {
        valid = verify(
          'sha256',
          body,
          { key: found.key, dsaEncoding: found.dsaEncoding },
          parts.signature,
        );
      } catch {
        // A signature that is not even well-formed DER.
      }
      return valid ? { ok: true } : { ok: false, reason: 'bad_signature' };
    },
    /** How often the keyset was requested (for tests and the operator). */
    get fetchCount() {
      return fetchCount;
    },
  };
}

export type KeysetVerifier = ReturnType<typeof createKeysetVerifier>;
