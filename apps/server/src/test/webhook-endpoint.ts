import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the server's webhook route, for tests of subscriber registration: answers
 * Google's verification handshake correctly (201 with the secret, 401 without) or, `wrong`,
 * with 200 to both, as an endpoint that ignores the secret would.
 */
export interface TestWebhookEndpoint {
  /** Base URL, to use as PUBLIC_URL. */
  baseUrl: string;
  /** baseUrl + /webhooks/google-health */
  url: string;
  /** Authorization headers of the requests received, in order (null when absent). */
  received: (string | null)[];
  close(): Promise<void>;
}

export async function startWebhookEndpoint(
  secret: string,
  behaviour: 'correct' | 'wrong' = 'correct',
): Promise<TestWebhookEndpoint> {
  const received: (string | null)[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/webhooks/google-health') {
        response.writeHead(404).end();
        return;
      }
      const authorization = request.headers.authorization ?? null;
      received.push(authorization);
      const status = behaviour === 'wrong' ? 200 : authorization === secret ? 201 : 401;
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    url: `${baseUrl}/webhooks/google-health`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
