import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the receiver saw of one request: the exact body bytes and the headers. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
  json: Record<string, unknown>;
  answered: number;
}

/**
 * A webhook endpoint on loopback, as a product would run one: it answers Google's verification
 * handshake by checking the Authorization header, and notifications with whatever status the test
 * chooses (204 unless told otherwise).
 */
export interface Receiver {
  url: string;
  /** Verification requests, in arrival order. */
  verifications: Received[];
  /** Everything else, in arrival order. */
  notifications: Received[];
  /** Status for the next notifications; the last entry repeats. */
  answerWith(...statuses: number[]): void;
  /** How verification requests are answered: checked (default), or a fixed status. */
  verifyWith(mode: 'check' | number): void;
  /** Waits this long before answering anything. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startReceiver(
  secret: string,
  path = '/hooks/google-health',
): Promise<Receiver> {
  let statuses = [204];
  let verifyMode: 'check' | number = 'check';
  const receiver = {
    url: '',
    verifications: [] as Received[],
    notifications: [] as Received[],
    delayMs: 0,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        json = {};
      }
      let status: number;
      let bucket: Received[];
      if (json.type === 'verification') {
        bucket = receiver.verifications;
        status =
          verifyMode === 'check'
            ? request.headers.authorization === secret
              ? 201
              : 401
            : verifyMode;
      } else {
        bucket = receiver.notifications;
        status = statuses.length > 1 ? (statuses.shift() ?? 204) : (statuses[0] ?? 204);
      }
      bucket.push({ headers: request.headers, body, json, answered: status });
      setTimeout(() => response.writeHead(status).end(), receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return Object.assign(receiver, {
    answerWith: (...next: number[]) => {
      statuses = next.length ? next : [204];
    },
    verifyWith: (mode: 'check' | number) => {
      verifyMode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
