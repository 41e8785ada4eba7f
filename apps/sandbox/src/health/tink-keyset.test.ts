import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeEcdsaPublicKey, publicKeysOf, verifyTinkSignature } from '../test/tink-verify.js';
import { encodeEcdsaPublicKey, WebhookSigner } from './tink-keyset.js';

const now = () => Date.parse('2026-11-20T12:00:00Z');

describe('Tink EcdsaPublicKey encoding', () => {
  it('writes params (SHA256, NIST_P256, DER) and the coordinates with a leading zero', () => {
    const x = new Uint8Array(32).fill(0xab);
    const y = new Uint8Array(32).fill(0x01);
    const bytes = Buffer.from(encodeEcdsaPublicKey(x, y));
    // field 2, length 6: hash_type=3 (field 1), curve=2 (field 2), encoding=2 (field 3)
    expect([...bytes.subarray(0, 8)]).toEqual([0x12, 0x06, 0x08, 0x03, 0x10, 0x02, 0x18, 0x02]);
    // field 3 (x), 33 bytes: 0x00 then the coordinate
    expect([...bytes.subarray(8, 11)]).toEqual([0x1a, 0x21, 0x00]);
    expect(bytes.subarray(11, 43).equals(Buffer.from(x))).toBe(true);
    expect([...bytes.subarray(43, 46)]).toEqual([0x22, 0x21, 0x00]);
    expect(bytes.subarray(46).equals(Buffer.from(y))).toBe(true);

    const decoded = decodeEcdsaPublicKey(bytes);
    expect(decoded).toMatchObject({ version: 0, hashType: 3, curve: 2, encoding: 2 });
  });
});

describe('WebhookSigner', () => {
  it('publishes a keyset whose key verifies its signatures, and rejects a changed body', () => {
    const signer = new WebhookSigner(undefined, now);
    const keyset = signer.keyset();
    expect(keyset.key).toHaveLength(1);
    const [entry] = keyset.key;
    expect(entry).toMatchObject({
      keyData: {
        typeUrl: 'type.googleapis.com/google.crypto.tink.EcdsaPublicKey',
        keyMaterialType: 'ASYMMETRIC_PUBLIC',
      },
      status: 'ENABLED',
      keyId: keyset.primaryKeyId,
      outputPrefixType: 'TINK',
    });
    expect(Number.isInteger(keyset.primaryKeyId)).toBe(true);
    expect(keyset.primaryKeyId).toBeGreaterThan(0);
    expect(keyset.primaryKeyId).toBeLessThan(2 ** 32);

    const body = Buffer.from('{"data":{"version":"1"}}');
    const header = signer.signatureHeader(body);
    const raw = Buffer.from(header, 'base64');
    expect(raw[0]).toBe(0x01);
    expect(raw.readUInt32BE(1)).toBe(keyset.primaryKeyId);
    // A DER ECDSA signature is a SEQUENCE (0x30).
    expect(raw[5]).toBe(0x30);
    expect(verifyTinkSignature(keyset, header, body)).toEqual({
      keyId: keyset.primaryKeyId,
      valid: true,
    });
    expect(verifyTinkSignature(keyset, header, Buffer.from('{"data":{"version":"2"}}'))).toEqual({
      keyId: keyset.primaryKeyId,
      valid: false,
    });
  });

  it('rotates to a new primary key and keeps the previous ones listed (up to three)', () => {
    const signer = new WebhookSigner(undefined, now);
    const first = signer.keyset().primaryKeyId;
    const body = Buffer.from('{"a":1}');
    const oldSignature = signer.signatureHeader(body);
    const rotated = signer.rotate();
    expect(rotated.primaryKeyId).not.toBe(first);
    expect(rotated.key.map((k) => k.keyId)).toEqual([first, rotated.primaryKeyId]);
    const newSignature = signer.signatureHeader(body);
    expect(verifyTinkSignature(rotated, newSignature, body)?.keyId).toBe(rotated.primaryKeyId);
    expect(verifyTinkSignature(rotated, newSignature, body)?.valid).toBe(true);
    // What was signed before the rotation still verifies against the new keyset.
    expect(verifyTinkSignature(rotated, oldSignature, body)).toEqual({ keyId: first, valid: true });
    signer.rotate();
    const third = signer.rotate();
    expect(third.key).toHaveLength(3);
    expect(third.key.map((k) => k.keyId)).not.toContain(first);
    expect(publicKeysOf(third).size).toBe(3);
  });

  it('keeps its keys across restarts when it has a data directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-keys-'));
    try {
      const before = new WebhookSigner(dir, now);
      before.rotate();
      const after = new WebhookSigner(dir, now);
      expect(after.keyset()).toEqual(before.keyset());
      const body = Buffer.from('x');
      expect(verifyTinkSignature(before.keyset(), after.signatureHeader(body), body)?.valid).toBe(
        true,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
