import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { MessageStore } from './store.js';

/** Messages above this size are refused with SMTP 552, like most relays do. */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

export interface SmtpCatcher {
  port: number;
  close(): Promise<void>;
}

class SmtpError extends Error {
  constructor(
    message: string,
    readonly responseCode: number,
  ) {
    super(message);
  }
}

function readMessage(stream: SMTPServerDataStream): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining past the limit (the client is still sending) but stop buffering.
      if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk);
    });
    stream.on('error', reject);
    stream.on('end', () => {
      resolve(stream.sizeExceeded || size > MAX_MESSAGE_BYTES ? null : Buffer.concat(chunks));
    });
  });
}

async function capture(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  store: MessageStore,
): Promise<void> {
  const raw = await readMessage(stream);
  if (!raw) {
    throw new SmtpError('Message exceeds the fixed maximum message size of 25 MB', 552);
  }
  const parsed = await simpleParser(raw);
  const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  const from = parsed.from?.text || envelopeFrom;
  const html = typeof parsed.html === 'string' ? parsed.html : null;
  // One captured message per envelope recipient: Bcc recipients only exist in the envelope.
  for (const recipient of session.envelope.rcptTo) {
    store.add({
      channel: 'email',
      to: recipient.address,
      from,
      subject: parsed.subject ?? null,
      text: parsed.text ?? '',
      html,
    });
  }
}

export async function startSmtpCatcher(
  store: MessageStore,
  options: { host: string; port: number },
): Promise<SmtpCatcher> {
  const server = new SMTPServer({
    name: 'sandbox.localhost',
    banner: 'Research platform sandbox SMTP catcher',
    logger: false,
    size: MAX_MESSAGE_BYTES,
    // Loopback only: no TLS, and credentials are optional; when a client offers them, any pass.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'sandbox' });
    },
    onData(stream, session, callback) {
      capture(stream, session, store).then(
        () => callback(null, 'Message captured by the sandbox'),
        (error: unknown) => {
          if (error instanceof SmtpError) {
            callback(Object.assign(new Error(error.message), { responseCode: error.responseCode }));
          } else {
            callback(
              Object.assign(new Error('Message could not be parsed'), { responseCode: 451 }),
            );
          }
        },
      );
    },
  });
  // smtp-server reports per-connection problems (client hang-ups) as 'error'; they must not crash us.
  server.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
