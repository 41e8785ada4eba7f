import net from 'node:net';
import type { NodemailerError } from 'nodemailer';
import nodemailer from 'nodemailer';

export interface MailerOptions {
  /** e.g. `smtp://user:pass@relay:587` or `smtps://...`; credentials stay inside the transport. */
  smtpUrl: string;
  /** Sender, e.g. `"Research Platform" <no-reply@example.org>`. */
  from: string;
  /** How long to wait for a relay to answer before giving up; 5 s unless set. */
  connectionTimeoutMs?: number | undefined;
  /** SMTP connections kept open to the relay and used at once; 5 unless set. */
  maxConnections?: number | undefined;
}

export interface MailMessage {
  to: string | readonly string[];
  subject: string;
  html: string;
  text: string;
  replyTo?: string | undefined;
}

export interface SentMail {
  messageId: string;
  /** Recipients the relay accepted. */
  accepted: string[];
  /** Recipients the relay refused while accepting the others (per-recipient delivery status). */
  rejected: string[];
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
  /** Connects and greets the relay; throws MailDeliveryError when it is unreachable. */
  verify(): Promise<void>;
  close(): void;
}

/**
 * A failed delivery. `transient` tells a job whether a retry can succeed (relay down, timeout,
 * 4xx reply) or not (5xx reply, bad address, bad credentials).
 */
export class MailDeliveryError extends Error {
  readonly transient: boolean;
  /** Nodemailer or socket error code, e.g. `ECONNECTION`, `ETIMEDOUT`, `EENVELOPE`. */
  readonly code: string | undefined;
  /** SMTP reply code, e.g. 550. */
  readonly responseCode: number | undefined;
  /**
   * The relay's reply text. Kept out of `message` because relays often quote the recipient
   * address, and messages end up in status columns and logs.
   */
  readonly response: string | undefined;

  constructor(
    message: string,
    options: {
      transient: boolean;
      code?: string | undefined;
      responseCode?: number | undefined;
      response?: string | undefined;
      cause?: unknown;
    },
  ) {
    super(message, { cause: options.cause });
    this.name = 'MailDeliveryError';
    this.transient = options.transient;
    this.code = options.code;
    this.responseCode = options.responseCode;
    this.response = options.response;
  }
}

const NETWORK_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'EPROXY',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

export function toMailDeliveryError(error: unknown): MailDeliveryError {
  if (error instanceof MailDeliveryError) return error;
  const err = (error instanceof Error ? error : new Error(String(error))) as NodemailerError;
  const responseCode = typeof err.responseCode === 'number' ? err.responseCode : undefined;
  // The SMTP reply decides when there is one (RFC 5321: 4yz = try again later, 5yz = never);
  // without one, only network failures are worth retrying.
  const transient =
    responseCode !== undefined
      ? responseCode >= 400 && responseCode < 500
      : NETWORK_CODES.has(err.code ?? '') || NETWORK_CODES.has(err.errno?.toString() ?? '');
  const reason =
    err.response && err.message.endsWith(`: ${err.response}`)
      ? err.message.slice(0, -err.response.length - 2)
      : err.message;
  const facts = [
    err.code,
    responseCode !== undefined ? `SMTP ${responseCode}` : undefined,
    err.command ? `at ${err.command}` : undefined,
  ].filter(Boolean);
  return new MailDeliveryError(
    `Mail delivery failed: ${reason}${facts.length ? ` (${facts.join(', ')})` : ''}`,
    { transient, code: err.code, responseCode, response: err.response, cause: error },
  );
}

/**
 * Opens the TCP connection to the relay for nodemailer, with Nagle's algorithm off. Nodemailer
 * leaves it on, and the end of each message (a short write after the body) then waits for the
 * relay's delayed acknowledgement: about 40 ms a message on Linux, 20 mails a second on one
 * connection instead of 200. TLS (smtps, STARTTLS) is still set up by nodemailer on this socket.
 */
type RelayAddress = {
  host?: string | undefined;
  port?: number | string | undefined;
  secure?: boolean | undefined;
};

function connectWithoutDelay(
  target: RelayAddress,
  timeoutMs: number,
  callback: (error: Error | null, socketOptions?: { connection: net.Socket }) => void,
) {
  const socket = net.connect({
    host: target.host ?? 'localhost',
    port: Number(target.port ?? (target.secure ? 465 : 587)),
    noDelay: true,
  });
  const settle = (error: Error | null) => {
    clearTimeout(timer);
    socket.off('error', settle);
    if (error) {
      socket.destroy();
      callback(error);
    } else {
      callback(null, { connection: socket });
    }
  };
  const timer = setTimeout(
    () => settle(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })),
    timeoutMs,
  );
  socket.once('connect', () => settle(null));
  socket.once('error', settle);
}

export function createMailer(options: MailerOptions): Mailer {
  const timeout = options.connectionTimeoutMs ?? 5_000;
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    // Connections stay open between messages, and the delivery workers use several at once.
    pool: true,
    maxConnections: options.maxConnections ?? 5,
    getSocket: (target: RelayAddress, callback: (error: Error | null, socket?: object) => void) =>
      connectWithoutDelay(target, timeout, callback),
    // A dead relay must fail a job quickly instead of holding a worker for minutes.
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 6,
    dnsTimeout: timeout,
  });

  return {
    async send(message) {
      const to = typeof message.to === 'string' ? [message.to] : [...message.to];
      if (to.length === 0) {
        throw new MailDeliveryError('Mail delivery failed: no recipients', { transient: false });
      }
      try {
        const info = await transport.sendMail({
          from: options.from,
          to,
          subject: message.subject,
          html: message.html,
          text: message.text,
          ...(message.replyTo !== undefined && { replyTo: message.replyTo }),
        });
        return {
          messageId: info.messageId,
          accepted: [...info.accepted],
          rejected: [...info.rejected],
        };
      } catch (error) {
        throw toMailDeliveryError(error);
      }
    },

    async verify() {
      try {
        await transport.verify();
      } catch (error) {
        throw toMailDeliveryError(error);
      }
    },

    close() {
      transport.close();
    },
  };
}
