import {
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { readJsonFile, writeJsonFile } from './json-file.js';

/**
 * The keys that sign webhook notifications, published as a Tink public keyset in JSON, the format
 * Google serves its webhook verification keys in. A receiver picks the key by the id carried in
 * each signature, so rotation adds a new primary key and keeps the older ones listed for a while.
 */

const KEYS_FILE = 'health-webhook-keys.json';
/** How many keys stay listed after rotations: the primary and the two before it. */
const KEYS_LISTED = 3;

export const ECDSA_PUBLIC_KEY_TYPE_URL = 'type.googleapis.com/google.crypto.tink.EcdsaPublicKey';

/** Enum numbers of Tink's `common.proto` and `ecdsa.proto` used by this key type. */
export const TINK_ENUM = {
  /** HashType.SHA256 */
  sha256: 3,
  /** EllipticCurveType.NIST_P256 */
  nistP256: 2,
  /** EcdsaSignatureEncoding.DER */
  der: 2,
} as const;

/** Tink's output prefix for `TINK` keys: a version byte, then the key id (4 bytes, big-endian). */
const TINK_PREFIX_VERSION = 0x01;

export interface TinkKeyset {
  primaryKeyId: number;
  key: {
    keyData: { typeUrl: string; value: string; keyMaterialType: 'ASYMMETRIC_PUBLIC' };
    status: 'ENABLED';
    keyId: number;
    outputPrefixType: 'TINK';
  }[];
}

interface WebhookKey {
  keyId: number;
  privateKey: KeyObject;
  createdAt: string;
}

interface PersistedKey {
  keyId: number;
  /** PKCS#8 PEM */
  privateKey: string;
  createdAt: string;
}

/**
 * Serialises Tink's `EcdsaPublicKey` message with protobuf's wire format:
 *
 *   message EcdsaParams    { HashType hash_type = 1; EllipticCurveType curve = 2;
 *                            EcdsaSignatureEncoding encoding = 3; }
 *   message EcdsaPublicKey { uint32 version = 1; EcdsaParams params = 2; bytes x = 3; bytes y = 4; }
 *
 * proto3 leaves out fields at their default, so `version = 0` is not written. x and y are the point's
 * coordinates as big-endian numbers, written here with one leading zero byte so that a reader
 * taking them as signed (two's complement) still sees positives; receivers should accept any
 * length and strip leading zeros.
 */
export function encodeEcdsaPublicKey(x: Uint8Array, y: Uint8Array): Uint8Array {
  const withLeadingZero = (coordinate: Uint8Array) => {
    const out = new Uint8Array(coordinate.length + 1);
    out.set(coordinate, 1);
    return out;
  };
  const writer = new BinaryWriter();
  // field 2 (params): an embedded message, length-delimited
  writer.tag(2, WireType.LengthDelimited).fork();
  writer.tag(1, WireType.Varint).int32(TINK_ENUM.sha256);
  writer.tag(2, WireType.Varint).int32(TINK_ENUM.nistP256);
  writer.tag(3, WireType.Varint).int32(TINK_ENUM.der);
  writer.join();
  writer.tag(3, WireType.LengthDelimited).bytes(withLeadingZero(x));
  writer.tag(4, WireType.LengthDelimited).bytes(withLeadingZero(y));
  return writer.finish();
}

/** Tink key ids are unsigned 32-bit numbers; zero is avoided as it reads like "no key". */
function newKeyId(taken: Set<number>): number {
  for (;;) {
    const id = randomBytes(4).readUInt32BE(0);
    if (id !== 0 && !taken.has(id)) return id;
  }
}

function generateKey(taken: Set<number>, now: number): WebhookKey {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { keyId: newKeyId(taken), privateKey, createdAt: new Date(now).toISOString() };
}

export class WebhookSigner {
  /** Newest last; the last one is the primary. */
  private keys: WebhookKey[] = [];

  constructor(
    private readonly dataDir: string | undefined,
    private readonly now: () => number,
  ) {
    const stored = readJsonFile<PersistedKey[]>(dataDir, KEYS_FILE);
    if (Array.isArray(stored) && stored.length > 0) {
      this.keys = stored.map((k) => ({
        keyId: k.keyId,
        privateKey: createPrivateKey(k.privateKey),
        createdAt: k.createdAt,
      }));
    } else {
      this.rotate();
    }
  }

  private save(): void {
    writeJsonFile(
      this.dataDir,
      KEYS_FILE,
      this.keys.map((k) => ({
        keyId: k.keyId,
        privateKey: k.privateKey.export({ type: 'pkcs8', format: 'pem' }),
        createdAt: k.createdAt,
      })),
    );
  }

  /** A new primary key; the previous keys stay listed so notifications in flight still verify. */
  rotate(): TinkKeyset {
    this.keys.push(generateKey(new Set(this.keys.map((k) => k.keyId)), this.now()));
    this.keys = this.keys.slice(-KEYS_LISTED);
    this.save();
    return this.keyset();
  }

  get primaryKeyId(): number {
    const primary = this.keys.at(-1);
    if (!primary) throw new Error('no webhook signing key');
    return primary.keyId;
  }

  keyset(): TinkKeyset {
    return {
      primaryKeyId: this.primaryKeyId,
      key: this.keys.map((k) => {
        const jwk = k.privateKey.export({ format: 'jwk' });
        const x = Buffer.from(jwk.x ?? '', 'base64url');
        const y = Buffer.from(jwk.y ?? '', 'base64url');
        return {
          keyData: {
            typeUrl: ECDSA_PUBLIC_KEY_TYPE_URL,
            value: Buffer.from(encodeEcdsaPublicKey(x, y)).toString('base64'),
            keyMaterialType: 'ASYMMETRIC_PUBLIC' as const,
          },
          status: 'ENABLED' as const,
          keyId: k.keyId,
          outputPrefixType: 'TINK' as const,
        };
      }),
    };
  }

  /**
   * The `GOOGLE-HEALTH-API-SIGNATURE` value for a body: base64 of the Tink prefix (0x01 and the
   * primary key's id) followed by the DER-encoded ECDSA P-256 SHA-256 signature of the exact bytes.
   */
  signatureHeader(body: string | Uint8Array): string {
    const primary = this.keys.at(-1);
    if (!primary) throw new Error('no webhook signing key');
    const signature = sign('sha256', typeof body === 'string' ? Buffer.from(body) : body, {
      key: primary.privateKey,
      dsaEncoding: 'der',
    });
    const prefix = Buffer.alloc(5);
    prefix.writeUInt8(TINK_PREFIX_VERSION, 0);
    prefix.writeUInt32BE(primary.keyId, 1);
    return Buffer.concat([prefix, signature]).toString('base64');
  }
}
