import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { MessageStore } from './store.js';

export interface TwilioCredentials {
  accountSid: string;
  authToken: string;
}

const API_VERSION = '2010-04-01';
const MAX_BODY_CHARS = 1600;

/** Twilio's error body: https://www.twilio.com/docs/usage/twilios-response */
function twilioError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.code(status).send({
    code,
    message,
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status,
  });
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function parseBasicAuth(header: string | undefined): { user: string; password: string } | null {
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Characters of the GSM 03.38 default alphabet (and its extension table) that fit 7-bit SMS. */
const GSM_7 =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€';

/** Segments as carriers count them: 160/153 GSM-7 characters or 70/67 UCS-2 code units. */
export function countSegments(body: string): number {
  const gsm = [...body].every((ch) => GSM_7.includes(ch));
  const length = gsm
    ? [...body].reduce((n, ch) => n + ('^{}\\[~]|€'.includes(ch) ? 2 : 1), 0)
    : body.length;
  const [single, multi] = gsm ? [160, 153] : [70, 67];
  return length <= single ? 1 : Math.ceil(length / multi);
}

const E164 = /^\+[1-9]\d{6,14}$/;

function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Twilio-compatible `Messages.json`: what the server's SMS adapter calls in production. */
export function registerTwilio(
  app: FastifyInstance,
  deps: { store: MessageStore; credentials: TwilioCredentials },
): void {
  const { store, credentials } = deps;

  app.post<{ Params: { accountSid: string } }>(
    `/${API_VERSION}/Accounts/:accountSid/Messages.json`,
    async (request, reply) => {
      const auth = parseBasicAuth(request.headers.authorization);
      const pathSid = request.params.accountSid;
      if (
        !auth ||
        !safeEqual(auth.user, credentials.accountSid) ||
        !safeEqual(auth.password, credentials.authToken) ||
        pathSid !== credentials.accountSid
      ) {
        reply.header('WWW-Authenticate', 'Basic realm="Twilio API"');
        return twilioError(reply, 401, 20003, 'Authenticate');
      }

      const to = field(request.body, 'To')?.trim();
      const from = field(request.body, 'From')?.trim();
      const messagingServiceSid = field(request.body, 'MessagingServiceSid')?.trim();
      const body = field(request.body, 'Body');

      if (!to) return twilioError(reply, 400, 21604, "A 'To' phone number is required.");
      if (!E164.test(to)) {
        return twilioError(reply, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      }
      if (!from && !messagingServiceSid) {
        return twilioError(reply, 400, 21603, "A 'From' phone number is required.");
      }
      if (body === undefined || body.length === 0) {
        return twilioError(reply, 400, 21602, 'Message body is required.');
      }
      if (body.length > MAX_BODY_CHARS) {
        return twilioError(
          reply,
          400,
          21617,
          'The concatenated message body exceeds the 1600 character limit.',
        );
      }

      const sid = `SM${randomBytes(16).toString('hex')}`;
      const now = new Date().toUTCString().replace('GMT', '+0000');
      const uri = `/${API_VERSION}/Accounts/${credentials.accountSid}/Messages/${sid}.json`;
      store.add({
        id: sid,
        channel: 'sms',
        to,
        from: from ?? messagingServiceSid ?? '',
        subject: null,
        text: body,
        html: null,
      });
      return reply.code(201).send({
        account_sid: credentials.accountSid,
        api_version: API_VERSION,
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: from ?? null,
        messaging_service_sid: messagingServiceSid ?? null,
        num_media: '0',
        num_segments: String(countSegments(body)),
        price: null,
        price_unit: 'USD',
        sid,
        // Twilio answers "accepted" when a Messaging Service still has to pick the sender.
        status: from ? 'queued' : 'accepted',
        subresource_uris: { media: `${uri.slice(0, -'.json'.length)}/Media.json` },
        to,
        uri,
      });
    },
  );
}
