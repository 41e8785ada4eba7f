import type { Clock } from './clock.js';
import type { Operation } from './notifications.js';
import type { WebhookSigner } from './tink-keyset.js';

/**
 * Delivery of change notifications to subscribers' endpoints, the way Google does it: each
 * notification is POSTed with the subscriber's secret and a signature; only 204 counts as
 * delivered. Anything else (another status, a refused connection, no answer in time) is retried
 * with exponential back-off for up to 7 days, then dropped. When an endpoint accepts a
 * notification again, its waiting backlog is sent right away, oldest first.
 *
 * The schedule is Google's, compressed by the `webhookTimeScale` knob so tests and local runs
 * see a week of retries in seconds or minutes.
 */

/** Google keeps an undelivered notification this long (in its own time). */
export const RETENTION_MS = 7 * 86_400_000;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 3_600_000;
/** Finished deliveries kept for the admin view. */
const MAX_KEPT = 2_000;
export const NOTIFIER_USER_AGENT = 'Google-Health-API-Webhooks';

export type DeliveryState = 'pending' | 'delivered' | 'dropped';

export interface DeliveryAttempt {
  /** Sandbox clock, RFC 3339. */
  at: string;
  /** The endpoint's HTTP status; absent when there was no answer. */
  status?: number;
  /** `timeout` or the connection error, when there was no answer. */
  error?: string;
}

/** One notification to one subscriber, as the admin view shows it. */
export interface DeliveryView {
  id: string;
  /** `projects/{number}/subscribers/{id}` */
  subscriber: string;
  endpointUri: string;
  healthUserId: string;
  dataType: string;
  operation: Operation;
  state: DeliveryState;
  createdAt: string;
  attempts: DeliveryAttempt[];
  /** Sandbox clock, RFC 3339, while pending. */
  nextAttemptAt?: string;
  /** The exact JSON text sent (the signature covers these bytes). */
  body: string;
  /** Why it was dropped. */
  droppedBecause?: string;
}

/** Where a subscriber currently wants notifications; null once it is deleted. */
export type EndpointLookup = (subscriber: string) => { uri: string; secret: string } | null;

interface Delivery extends DeliveryView {
  sequence: number;
  /** Real time (ms) of creation: the retention window runs on the compressed schedule. */
  createdReal: number;
  timer?: NodeJS.Timeout;
}

interface Lane {
  due: Delivery[];
  busy: boolean;
}

export interface DeliveryKnobs {
  webhookTimeScale: number;
  webhookTimeoutMs: number;
}

export class Deliveries {
  private readonly all = new Map<string, Delivery>();
  private readonly lanes = new Map<string, Lane>();
  private sequence = 0;
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly options: {
      clock: Clock;
      signer: WebhookSigner;
      knobs: () => DeliveryKnobs;
      endpoint: EndpointLookup;
    },
  ) {}

  enqueue(
    subscriber: string,
    meta: { healthUserId: string; dataType: string; operation: Operation },
    body: string,
  ): DeliveryView {
    const endpoint = this.options.endpoint(subscriber);
    this.sequence += 1;
    const delivery: Delivery = {
      id: `d${this.sequence}`,
      sequence: this.sequence,
      subscriber,
      endpointUri: endpoint?.uri ?? '',
      ...meta,
      state: 'pending',
      createdAt: new Date(this.options.clock.now()).toISOString(),
      createdReal: Date.now(),
      attempts: [],
      body,
    };
    this.all.set(delivery.id, delivery);
    this.trim();
    this.makeDue(delivery);
    return this.view(delivery);
  }

  /** A second copy of a notification, as Google sometimes sends (receivers must be idempotent). */
  duplicate(id: string): DeliveryView | null {
    const original = this.all.get(id);
    if (!original) return null;
    const { healthUserId, dataType, operation } = original;
    return this.enqueue(original.subscriber, { healthUserId, dataType, operation }, original.body);
  }

  list(filter: { subscriber?: string; state?: DeliveryState } = {}): DeliveryView[] {
    return [...this.all.values()]
      .filter((d) => !filter.subscriber || d.subscriber === filter.subscriber)
      .filter((d) => !filter.state || d.state === filter.state)
      .map((d) => this.view(d));
  }

  /** Forgets delivered and dropped notifications; pending ones stay. */
  clearFinished(): number {
    let count = 0;
    for (const [id, d] of this.all) {
      if (d.state !== 'pending') {
        this.all.delete(id);
        count += 1;
      }
    }
    return count;
  }

  /** Drops what is still pending for a subscriber (it was deleted). */
  dropFor(subscriber: string, reason: string): void {
    for (const d of this.all.values()) {
      if (d.subscriber === subscriber && d.state === 'pending') this.drop(d, reason);
    }
  }

  /** Resolves once nothing is pending any more (delivered or dropped), or rejects on timeout. */
  async settled(timeoutMs = 10_000): Promise<DeliveryView[]> {
    const deadline = Date.now() + timeoutMs;
    while ([...this.all.values()].some((d) => d.state === 'pending')) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('webhook deliveries still pending');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.list();
  }

  close(): void {
    this.closed = true;
    for (const d of this.all.values()) if (d.timer) clearTimeout(d.timer);
  }

  private view(d: Delivery): DeliveryView {
    const { sequence: _s, createdReal: _c, timer: _t, ...rest } = d;
    return { ...rest, attempts: [...d.attempts] };
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private trim(): void {
    for (const [id, d] of this.all) {
      if (this.all.size <= MAX_KEPT) break;
      if (d.state !== 'pending') this.all.delete(id);
    }
  }

  private lane(subscriber: string): Lane {
    let lane = this.lanes.get(subscriber);
    if (!lane) {
      lane = { due: [], busy: false };
      this.lanes.set(subscriber, lane);
    }
    return lane;
  }

  private makeDue(d: Delivery): void {
    if (d.timer) clearTimeout(d.timer);
    d.timer = undefined;
    delete d.nextAttemptAt;
    const lane = this.lane(d.subscriber);
    if (!lane.due.includes(d)) {
      lane.due.push(d);
      lane.due.sort((a, b) => a.sequence - b.sequence);
    }
    void this.pump(d.subscriber, lane);
  }

  /** One attempt at a time per subscriber, oldest due first, so a backlog arrives in order. */
  private async pump(subscriber: string, lane: Lane): Promise<void> {
    if (lane.busy) return;
    lane.busy = true;
    try {
      for (let next = lane.due.shift(); next && !this.closed; next = lane.due.shift()) {
        if (next.state === 'pending') await this.attempt(next);
      }
    } finally {
      lane.busy = false;
      this.wake();
    }
    if (lane.due.length && !this.closed) void this.pump(subscriber, lane);
  }

  private async attempt(d: Delivery): Promise<void> {
    const endpoint = this.options.endpoint(d.subscriber);
    if (!endpoint) {
      this.drop(d, 'subscriber deleted');
      return;
    }
    d.endpointUri = endpoint.uri;
    const { webhookTimeoutMs, webhookTimeScale } = this.options.knobs();
    const record: DeliveryAttempt = { at: new Date(this.options.clock.now()).toISOString() };
    try {
      const response = await fetch(endpoint.uri, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: endpoint.secret,
          'google-health-api-signature': this.options.signer.signatureHeader(d.body),
          'user-agent': NOTIFIER_USER_AGENT,
        },
        body: d.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(webhookTimeoutMs),
      });
      record.status = response.status;
      await response.body?.cancel();
    } catch (error) {
      record.error = describeFailure(error);
    }
    d.attempts.push(record);
    // Dropped meanwhile (its subscriber was deleted): the answer changes nothing.
    if (d.state !== 'pending') return;
    if (record.status === 204) {
      d.state = 'delivered';
      this.flushBacklog(d.subscriber);
      return;
    }
    const delay = Math.min(FIRST_RETRY_MS * 2 ** (d.attempts.length - 1), MAX_RETRY_MS);
    const ageAtRetry = (Date.now() - d.createdReal) * webhookTimeScale + delay;
    if (ageAtRetry > RETENTION_MS) {
      this.drop(d, 'not accepted within 7 days');
      return;
    }
    const realDelay = delay / webhookTimeScale;
    d.nextAttemptAt = new Date(this.options.clock.now() + realDelay).toISOString();
    d.timer = setTimeout(() => this.makeDue(d), realDelay);
    d.timer.unref?.();
  }

  /** The endpoint answers again: everything waiting for it goes now instead of at its retry time. */
  private flushBacklog(subscriber: string): void {
    for (const d of this.all.values()) {
      if (d.subscriber === subscriber && d.state === 'pending' && d.timer) this.makeDue(d);
    }
  }

  private drop(d: Delivery, reason: string): void {
    if (d.timer) clearTimeout(d.timer);
    d.timer = undefined;
    delete d.nextAttemptAt;
    d.state = 'dropped';
    d.droppedBecause = reason;
    this.wake();
  }
}

export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timeout';
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}
