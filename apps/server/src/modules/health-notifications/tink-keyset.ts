import { createPublicKey, type KeyObject } from 'node:crypto';

/**
 * Google signs each notification with Tink and publishes the public keys as a Tink JSON keyset.
 * Only what that needs is read here: the keyset's JSON, and inside each key the serialized
 * `EcdsaPublicKey` protocol buffer, whose four fields are read by the small reader below (no
 * protobuf library is needed for four fields).
 *
 *   EcdsaPublicKey { uint32 version = 1; EcdsaParams params = 2; bytes x = 3; bytes y = 4; }
 *   EcdsaParams    { HashType hash_type = 1; EllipticCurveType curve = 2;
 *                    EcdsaSignatureEncoding encoding = 3; }
 */

const ECDSA_PUBLIC_KEY_TYPE = 'type.googleapis.com/google.crypto.tink.EcdsaPublicKey';
/** Tink's enum values for the one combination Google uses: SHA-256 on P-256. */
const HASH_SHA256 = 3;
const CURVE_NIST_P256 = 2;
const ENCODING_IEEE_P1363 = 1;
const ENCODING_DER = 2;

/** One usable public key of the keyset. */
export interface VerificationKey {
  keyId: number;
  key: KeyObject;
  /** How the signature's r and s are written: DER (Tink's usual) or fixed-width r||s. */
  dsaEncoding: 'der' | 'ieee-p1363';
}

export class KeysetError extends Error {}

/** The fields of one protocol-buffer message: field number → its values, in order. */
type Fields = Map<number, Array<bigint | Buffer>>;

/**
 * Reads a protocol-buffer message's top level. Each field starts with a varint key
 * (field number << 3 | wire type); wire type 0 is a varint, 2 a length-prefixed byte string,
 * 1 and 5 fixed 64 and 32 bits (skipped). Groups (3, 4) are obsolete and refused.
 */
export function readProtoFields(bytes: Buffer): Fields {
  const fields: Fields = new Map();
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (at >= bytes.length) throw new KeysetError('truncated varint');
      const byte = bytes[at++] as number;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new KeysetError('varint too long');
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Number(key >> 3n);
    const wireType = Number(key & 7n);
    let value: bigint | Buffer;
    if (wireType === 0) value = varint();
    else if (wireType === 2) {
      const length = Number(varint());
      if (at + length > bytes.length) throw new KeysetError('truncated field');
      value = bytes.subarray(at, at + length);
      at += length;
    } else if (wireType === 1 || wireType === 5) {
      at += wireType === 1 ? 8 : 4;
      if (at > bytes.length) throw new KeysetError('truncated field');
      continue;
    } else throw new KeysetError(`unsupported wire type ${wireType}`);
    const list = fields.get(field) ?? [];
    list.push(value);
    fields.set(field, list);
  }
  return fields;
}

const last = <T>(values: T[] | undefined) => values?.[values.length - 1];
const numberOf = (fields: Fields, field: number) => {
  const value = last(fields.get(field));
  return typeof value === 'bigint' ? Number(value) : 0;
};
const bytesOf = (fields: Fields, field: number) => {
  const value = last(fields.get(field));
  return Buffer.isBuffer(value) ? value : Buffer.alloc(0);
};

/**
 * A coordinate as exactly 32 bytes: Tink writes them as big-endian integers that may carry a
 * leading 0x00 (so they never read as negative) or be shorter than the field.
 */
function coordinate(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  if (trimmed.length > 32) throw new KeysetError('coordinate longer than P-256 allows');
  return Buffer.concat([Buffer.alloc(32 - trimmed.length), trimmed]);
}

/** The P-256 public key in a serialized `EcdsaPublicKey`, or null for another hash or curve. */
export function ecdsaPublicKeyFrom(serialized: Buffer): Omit<VerificationKey, 'keyId'> | null {
  const key = readProtoFields(serialized);
  const params = readProtoFields(bytesOf(key, 2));
  if (numberOf(params, 1) !== HASH_SHA256 || numberOf(params, 2) !== CURVE_NIST_P256) return null;
  const encoding = numberOf(params, 3);
  if (encoding !== ENCODING_DER && encoding !== ENCODING_IEEE_P1363) return null;
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: coordinate(bytesOf(key, 3)).toString('base64url'),
    y: coordinate(bytesOf(key, 4)).toString('base64url'),
  };
  // node:crypto refuses a point that is not on the curve.
  return {
    key: createPublicKey({ key: jwk, format: 'jwk' }),
    dsaEncoding: encoding === ENCODING_DER ? 'der' : 'ieee-p1363',
  };
}

interface TinkJsonKey {
  keyData?: { typeUrl?: string; value?: string; keyMaterialType?: string };
  keyId?: number;
  status?: string;
  outputPrefixType?: string;
}

/**
 * The enabled ECDSA P-256 keys of a Tink JSON keyset whose signatures carry Tink's 5-byte
 * prefix. Keys of other kinds are skipped (a keyset may hold them); a keyset with none usable
 * is an error.
 */
export function parseTinkKeyset(json: unknown): Map<number, VerificationKey> {
  const keys = new Map<number, VerificationKey>();
  const list = (json as { key?: unknown } | null)?.key;
  if (!Array.isArray(list)) throw new KeysetError('keyset has no key list');
  for (const entry of list as TinkJsonKey[]) {
    if (entry?.status !== 'ENABLED' || entry.outputPrefixType !== 'TINK') continue;
    if (entry.keyData?.typeUrl !== ECDSA_PUBLIC_KEY_TYPE || !entry.keyData.value) continue;
    if (typeof entry.keyId !== 'number' || !Number.isInteger(entry.keyId)) continue;
    try {
      const parsed = ecdsaPublicKeyFrom(Buffer.from(entry.keyData.value, 'base64'));
      // Tink key ids are unsigned 32-bit; JSON may show them signed.
      const keyId = entry.keyId >>> 0;
      if (parsed) keys.set(keyId, { keyId, ...parsed });
    } catch {
      // One unreadable key does not spoil the others.
    }
  }
  if (keys.size === 0) throw new KeysetError('keyset holds no enabled ECDSA P-256 key');
  return keys;
}

/** Tink's prefix of a signature made by a key with output prefix TINK. */
const TINK_PREFIX_BYTE = 0x01;
const PREFIX_LENGTH = 5;

/** A signature header split into key id and the raw signature, or null when malformed. */
export function splitTinkSignature(header: string): { keyId: number; signature: Buffer } | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(header.trim())) return null;
  const bytes = Buffer.from(header.trim(), 'base64');
  // A P-256 signature is at least 8 bytes in DER and 64 in fixed width; 72 at most in DER.
  if (bytes.length < PREFIX_LENGTH + 8 || bytes.length > PREFIX_LENGTH + 80) return null;
  if (bytes[0] !== TINK_PREFIX_BYTE) return null;
  return { keyId: bytes.readUInt32BE(1), signature: bytes.subarray(PREFIX_LENGTH) };
}
