export interface SmsSenderOptions {
  /** Twilio REST base, e.g. `https://api.twilio.com`; the sandbox's URL locally. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** Sender number in E.164 form, or a messaging service's sender. */
  from: string;
  /** Whole-request timeout; 10 s unless set. */
  timeoutMs?: number | undefined;
}

export interface SmsMessage {
  /** Recipient in E.164 form, e.g. `+15551234567`. */
  to: string;
  body: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<{ sid: string }>;
}

/**
 * A failed send. `transient` tells a job whether to retry (throttled, Twilio down, network)
 * or to give up (invalid number, bad credentials: Twilio's 4xx).
 */
export class SmsDeliveryError extends Error {
  readonly transient: boolean;
  /** HTTP status of Twilio's reply; undefined when none arrived. */
  readonly status: number | undefined;
  /** Twilio error code, e.g. 21211 (invalid 'To' number) or 20003 (authentication). */
  readonly twilioCode: number | undefined;
  /**
   * Twilio's own explanation. Kept out of `message` because it often quotes the phone number,
   * and messages end up in status columns and logs.
   */
  readonly twilioMessage: string | undefined;

  constructor(
    message: string,
    options: {
      transient: boolean;
      status?: number | undefined;
      twilioCode?: number | undefined;
      twilioMessage?: string | undefined;
      cause?: unknown;
    },
  ) {
    super(message, { cause: options.cause });
    this.name = 'SmsDeliveryError';
    this.transient = options.transient;
    this.status = options.status;
    this.twilioCode = options.twilioCode;
    this.twilioMessage = options.twilioMessage;
  }
}

interface TwilioError {
  code?: unknown;
  message?: unknown;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

export function createSmsSender(options: SmsSenderOptions): SmsSender {
  const base = options.baseUrl.replace(/\/+$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  return {
    async send({ to, body }) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization,
            accept: 'application/json',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ To: to, From: options.from, Body: body }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const reason =
          error instanceof Error && error.name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : error instanceof Error
              ? error.cause instanceof Error
                ? error.cause.message
                : error.message
              : String(error);
        throw new SmsDeliveryError(`SMS delivery failed: ${reason}`, {
          transient: true,
          cause: error,
        });
      }

      const payload = await readJson(response);
      if (response.ok) {
        const sid = (payload as { sid?: unknown } | undefined)?.sid;
        if (typeof sid !== 'string') {
          throw new SmsDeliveryError('SMS delivery failed: Twilio answered without a message sid', {
            transient: false,
            status: response.status,
          });
        }
        return { sid };
      }

      const twilio = (payload ?? {}) as TwilioError;
      const twilioCode = typeof twilio.code === 'number' ? twilio.code : undefined;
      // 429 and 5xx are Twilio being busy or down; any other 4xx is about this request.
      const transient = response.status === 429 || response.status >= 500;
      throw new SmsDeliveryError(
        `SMS delivery failed: HTTP ${response.status}${twilioCode !== undefined ? `, Twilio error ${twilioCode}` : ''}`,
        {
          transient,
          status: response.status,
          twilioCode,
          twilioMessage: typeof twilio.message === 'string' ? twilio.message : undefined,
        },
      );
    },
  };
}
