import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

/**
 * A receiver's side of webhook signatures, written as a product would: read the Tink JSON keyset,
 * decode each `EcdsaPublicKey` proto into a P-256 public key, and check
 * `0x01 || keyId (4 bytes) || DER signature` over the raw body with node:crypto.
 */

export interface DecodedEcdsaPublicKey {
  version: number;
  hashType: number;
  curve: number;
  encoding: number;
  x: Uint8Array;
  y: Uint8Array;
  /** The serialized `params` sub-message, for byte-level checks. */
  paramsBytes: Uint8Array;
}

export function decodeEcdsaPublicKey(bytes: Uint8Array): DecodedEcdsaPublicKey {
  const reader = new BinaryReader(bytes);
  const out: DecodedEcdsaPublicKey = {
    version: 0,
    hashType: 0,
    curve: 0,
    encoding: 0,
    x: new Uint8Array(),
    y: new Uint8Array(),
    paramsBytes: new Uint8Array(),
  };
  while (reader.pos < reader.len) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.Varint) out.version = reader.uint32();
    else if (field === 2 && wire === WireType.LengthDelimited) {
      out.paramsBytes = reader.bytes();
      const params = new BinaryReader(out.paramsBytes);
      while (params.pos < params.len) {
        const [f, w] = params.tag();
        if (f === 1 && w === WireType.Varint) out.hashType = params.int32();
        else if (f === 2 && w === WireType.Varint) out.curve = params.int32();
        else if (f === 3 && w === WireType.Varint) out.encoding = params.int32();
        else params.skip(w, f);
      }
    } else if (field === 3 && wire === WireType.LengthDelimited) out.x = reader.bytes();
    else if (field === 4 && wire === WireType.LengthDelimited) out.y = reader.bytes();
    else reader.skip(wire, field);
  }
  return out;
}

/** An unsigned big-endian number as exactly 32 bytes (Tink may add a leading zero). */
function fixed32(value: Uint8Array): Buffer {
  let start = 0;
  while (start < value.length - 32 && value[start] === 0) start++;
  const trimmed = Buffer.from(value.subarray(start));
  if (trimmed.length > 32) throw new Error('coordinate longer than 32 bytes');
  return Buffer.concat([Buffer.alloc(32 - trimmed.length), trimmed]);
}

interface KeysetJson {
  primaryKeyId: number;
  key: {
    keyData: { typeUrl: string; value: string; keyMaterialType: string };
    status: string;
    keyId: number;
    outputPrefixType: string;
  }[];
}

export function publicKeysOf(keyset: KeysetJson): Map<number, KeyObject> {
  const keys = new Map<number, KeyObject>();
  for (const entry of keyset.key) {
    if (entry.status !== 'ENABLED' || entry.outputPrefixType !== 'TINK') continue;
    if (entry.keyData.typeUrl !== 'type.googleapis.com/google.crypto.tink.EcdsaPublicKey') continue;
    const decoded = decodeEcdsaPublicKey(Buffer.from(entry.keyData.value, 'base64'));
    keys.set(
      entry.keyId,
      createPublicKey({
        key: {
          kty: 'EC',
          crv: 'P-256',
          x: fixed32(decoded.x).toString('base64url'),
          y: fixed32(decoded.y).toString('base64url'),
        },
        format: 'jwk',
      }),
    );
  }
  return keys;
}

/** The key id the signature names, or null when the header is not a Tink signature. */
export function verifyTinkSignature(
  keyset: KeysetJson,
  header: string,
  body: Buffer,
): { keyId: number; valid: boolean } | null {
  const raw = Buffer.from(header, 'base64');
  if (raw.length < 6 || raw[0] !== 0x01) return null;
  const keyId = raw.readUInt32BE(1);
  const key = publicKeysOf(keyset).get(keyId);
  if (!key) return { keyId, valid: false };
  return {
    keyId,
    valid: verify('sha256', body, { key, dsaEncoding: 'der' }, raw.subarray(5)),
  };
}
