import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test-only: Google's side of signed notifications. P-256 keys made with node:crypto, published
 * as a Tink JSON keyset from a small HTTP server on loopback, and Tink signatures over bodies.
 */

export interface SigningKey {
  keyId: number;
  privateKey: KeyObject;
  /** The serialized `EcdsaPublicKey` (base64), as the keyset carries it. */
  value: string;
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value >>> 0;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}
const varintField = (field: number, value: number) =>
  Buffer.concat([varint((field << 3) | 0), varint(value)]);
const bytesField = (field: number, value: Buffer) =>
  Buffer.concat([varint((field << 3) | 2), varint(value.length), value]);

/**
 * A new signing key. Tink writes coordinates as signed big-endian integers, so they may carry a
 * leading 0x00: `leadingZero` writes x that way, as a reader must accept.
 */
export function newSigningKey(keyId: number, options: { leadingZero?: boolean } = {}): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  const x = Buffer.from(jwk.x, 'base64url');
  const params = Buffer.concat([varintField(1, 3), varintField(2, 2), varintField(3, 2)]);
  const proto = Buffer.concat([
    varintField(1, 0),
    bytesField(2, params),
    bytesField(3, options.leadingZero ? Buffer.concat([Buffer.from([0]), x]) : x),
    bytesField(4, Buffer.from(jwk.y, 'base64url')),
  ]);
  return { keyId, privateKey, value: proto.toString('base64') };
}

/** The Tink JSON keyset publishing these keys. */
export function tinkKeyset(keys: readonly SigningKey[]) {
  return {
    primaryKeyId: keys[0]?.keyId ?? 0,
    key: keys.map((k) => ({
      keyData: {
        typeUrl: 'type.googleapis.com/google.crypto.tink.EcdsaPublicKey',
        value: k.value,
        keyMaterialType: 'ASYMMETRIC_PUBLIC',
      },
      status: 'ENABLED',
      keyId: k.keyId,
      outputPrefixType: 'TINK',
    })),
  };
}

/** The signature header's value: 0x01, the key id (4 bytes, big-endian), DER ECDSA-SHA256. */
export function tinkSign(key: SigningKey, body: Buffer | string, keyIdOverride?: number): string {
  const prefix = Buffer.alloc(5);
  prefix[0] = 1;
  prefix.writeUInt32BE((keyIdOverride ?? key.keyId) >>> 0, 1);
  const signature = sign('sha256', Buffer.from(body), { key: key.privateKey, dsaEncoding: 'der' });
  return Buffer.concat([prefix, signature]).toString('base64');
}

export interface KeysetServer {
  url: string;
  /** Requests served so far. */
  readonly hits: number;
  publish(keys: readonly SigningKey[]): void;
  close(): Promise<void>;
}

/** Serves the keyset of the keys last published, on loopback, counting requests. */
export async function startKeysetServer(keys: readonly SigningKey[]): Promise<KeysetServer> {
  let body = JSON.stringify(tinkKeyset(keys));
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/googlehealthapi/webhooks/webhooks_public_keyset.json`,
    get hits() {
      return hits;
    },
    publish(next) {
      body = JSON.stringify(tinkKeyset(next));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
