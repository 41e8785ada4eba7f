import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type KeysetServer,
  newSigningKey,
  startKeysetServer,
  tinkSign,
} from '../../test/tink-kit.js';
import { createKeysetVerifier } from './signature.js';
import { parseTinkKeyset, readProtoFields } from './tink-keyset.js';

const body = Buffer.from('{"data":{"healthUserId":"1173016576421350648","operation":"UPSERT"}}');

describe('Tink signatures against a keyset read over HTTP', () => {
  const first = newSigningKey(0x11223344, { leadingZero: true });
  const rotated = newSigningKey(0x7fffff01);
  let keyset: KeysetServer;
  let clock = 0;

  beforeAll(async () => {
    keyset = await startKeysetServer([first]);
  });
  afterAll(() => keyset.close());

  it('accepts a good signature, refuses a tampered body and another key, and re-reads the keyset on rotation at most once', async () => {
    const verifier = createKeysetVerifier({ url: keyset.url, now: () => clock });
    expect(await verifier.check(body, tinkSign(first, body))).toEqual({ ok: true });
    expect(keyset.hits).toBe(1);

    const tampered = Buffer.from(body.toString().replace('UPSERT', 'DELETE'));
    expect(await verifier.check(tampered, tinkSign(first, body))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // The right key id, but made by another private key.
    expect(await verifier.check(body, tinkSign(rotated, body, first.keyId))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });

    // Google rotates: a key id the cached keyset does not hold reads it again, once.
    keyset.publish([first, rotated]);
    clock += 11_000;
    expect(await verifier.check(body, tinkSign(rotated, body))).toEqual({ ok: true });
    expect(keyset.hits).toBe(2);

    // Made-up key ids, however many, do not hammer the keyset's host.
    clock += 11_000;
    const flood = await Promise.all(
      Array.from({ length: 50 }, (_, i) => verifier.check(body, tinkSign(first, body, 9000 + i))),
    );
    expect(flood.every((r) => !r.ok && r.reason === 'unknown_key')).toBe(true);
    expect(keyset.hits).toBe(3);
    clock += 1_000;
    expect(await verifier.check(body, tinkSign(first, body, 424242))).toEqual({
      ok: false,
      reason: 'unknown_key',
    });
    expect(keyset.hits).toBe(3);
  });

  it('refuses a missing or malformed signature header before reading any keyset', async () => {
    const verifier = createKeysetVerifier({ url: keyset.url, now: () => clock });
    const hits = keyset.hits;
    expect(await verifier.check(body, undefined)).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
    expect(await verifier.check(body, 'not base64 at all!')).toEqual({
      ok: false,
      reason: 'malformed_signature',
    });
    // A raw (prefix-less) signature is not Tink's.
    const raw = tinkSign(first, body);
    const withoutPrefix = Buffer.from(raw, 'base64').subarray(5).toString('base64');
    expect((await verifier.check(body, withoutPrefix)).ok).toBe(false);
    expect(keyset.hits).toBe(hits);
  });

  it('says the keyset is unavailable when it cannot be read', async () => {
    const verifier = createKeysetVerifier({ url: 'http://127.0.0.1:9/keyset.json', now: () => 0 });
    expect(await verifier.check(body, tinkSign(first, body))).toEqual({
      ok: false,
      reason: 'keyset_unavailable',
    });
  });

  it('reads the proto fields and skips keys that are disabled or of another kind', () => {
    expect(readProtoFields(Buffer.from([0x08, 0x96, 0x01])).get(1)).toEqual([150n]);
    const keys = parseTinkKeyset({
      primaryKeyId: 1,
      key: [
        {
          keyData: {
            typeUrl: 'type.googleapis.com/google.crypto.tink.EcdsaPublicKey',
            value: first.value,
          },
          keyId: 1,
          status: 'DISABLED',
          outputPrefixType: 'TINK',
        },
        {
          keyData: {
            typeUrl: 'type.googleapis.com/google.crypto.tink.Ed25519PublicKey',
            value: 'AAAA',
          },
          keyId: 2,
          status: 'ENABLED',
          outputPrefixType: 'TINK',
        },
        {
          keyData: {
            typeUrl: 'type.googleapis.com/google.crypto.tink.EcdsaPublicKey',
            value: first.value,
          },
          keyId: -5,
          status: 'ENABLED',
          outputPrefixType: 'TINK',
        },
      ],
    });
    expect([...keys.keys()]).toEqual([4294967291]);
    expect(() => parseTinkKeyset({ key: [] })).toThrow();
  });
});
