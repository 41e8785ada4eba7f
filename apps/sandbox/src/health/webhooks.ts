import type { GrantStore } from '../oidc-grants.js';
import { HEALTH_SCOPE_PREFIX } from '../oidc-scopes.js';
import { DAY_MS, rfc3339 } from './civil.js';
import type { Clock } from './clock.js';
import { DATA_START_DAY, hasHealthProfile, healthIdentity } from './data-generator.js';
import { DATA_TYPES, type TypeSpec } from './data-types.js';
import type { Deliveries } from './deliveries.js';
import {
  changedSpans,
  NOTIFYING_TYPES,
  notificationBody,
  notifyingGeneratedTypes,
  type Operation,
  type Span,
} from './notifications.js';
import type { StoredSubscriber, SubscriberStore } from './subscribers.js';
import type { SyncHorizons } from './sync-horizons.js';

/**
 * Turns what happens to a simulated person into notifications: their tracker syncing new data
 * (UPSERT for the intervals that became visible) and their revoking the app's access (DELETE).
 * Only ACTIVE subscribers with an AUTOMATIC config for the type hear of it, and only for people
 * who granted a read scope covering the type.
 */

/** A sync later than this after the previous one notifies only its last days. */
const MAX_NOTIFIED_DAYS = 31;

export interface SyncResult {
  email: string;
  healthUserId: string;
  /** Data is visible up to here now (RFC 3339), or null when the device is live again. */
  syncedUntil: string | null;
  /** The horizon before this sync (RFC 3339). */
  previous: string;
  /** Notifications queued for delivery. */
  notifications: number;
}

export class WebhookHub {
  constructor(
    private readonly options: {
      clock: Clock;
      grants: GrantStore;
      horizons: SyncHorizons;
      subscribers: SubscriberStore;
      deliveries: Deliveries;
    },
  ) {}

  /** The read scopes of the account's live grants (any client of the project). */
  private liveScopes(email: string): Set<string> {
    const target = email.trim().toLowerCase();
    const scopes = new Set<string>();
    for (const grant of this.options.grants.list()) {
      if (grant.revokedAt || grant.account.email !== target) continue;
      for (const scope of grant.scopes) scopes.add(scope);
    }
    return scopes;
  }

  private covers(scopes: Set<string>, type: TypeSpec): boolean {
    return scopes.has(`${HEALTH_SCOPE_PREFIX}${type.area}.readonly`);
  }

  private listeners(type: TypeSpec): StoredSubscriber[] {
    return this.options.subscribers
      .list()
      .filter(
        (s) =>
          s.state === 'ACTIVE' &&
          s.subscriberConfigs.some(
            (c) => c.subscriptionCreatePolicy === 'AUTOMATIC' && c.dataTypes.includes(type.id),
          ),
      );
  }

  private send(
    subscriber: StoredSubscriber,
    healthUserId: string,
    operation: Operation,
    type: TypeSpec,
    spans: Span[],
  ): void {
    this.options.deliveries.enqueue(
      subscriber.name,
      { healthUserId, dataType: type.id, operation },
      notificationBody(healthUserId, operation, type.id, spans),
    );
  }

  /**
   * The tracker syncs: data becomes visible up to `until` (capped at now; null: live again, up to
   * now from here on). Moving the horizon forward notifies the intervals that appeared; moving it
   * back only hides data, as if the device had not synced yet, and notifies nothing.
   */
  sync(email: string, until: number | null): SyncResult {
    const { clock, horizons } = this.options;
    const now = clock.now();
    const target = until === null ? now : Math.min(until, now);
    const previous = horizons.set(email, until === null ? null : target, now);
    const { healthUserId } = healthIdentity(email);
    let notifications = 0;
    if (target > previous && hasHealthProfile(email)) {
      const scopes = this.liveScopes(email);
      const from = Math.max(previous, target - MAX_NOTIFIED_DAYS * DAY_MS);
      for (const type of notifyingGeneratedTypes()) {
        if (!this.covers(scopes, type)) continue;
        const subscribers = this.listeners(type);
        if (!subscribers.length) continue;
        const spans = changedSpans(type, email, healthUserId, from, target);
        if (!spans.length) continue;
        for (const subscriber of subscribers) {
          this.send(subscriber, healthUserId, 'UPSERT', type, spans);
          notifications += 1;
        }
      }
    }
    return {
      email: email.trim().toLowerCase(),
      healthUserId,
      syncedUntil: until === null ? null : rfc3339(target),
      previous: rfc3339(previous),
      notifications,
    };
  }

  /**
   * The person removes the app's access in their Google account: every grant goes, and each type
   * a grant covered is announced as deleted over all the data there is.
   */
  revoke(email: string): { revoked: number; notifications: number } {
    const before = this.liveScopes(email);
    const revoked = this.options.grants.revokeAccount(email);
    const after = this.liveScopes(email);
    let notifications = 0;
    if (revoked === 0 || !hasHealthProfile(email)) return { revoked, notifications };
    const { healthUserId } = healthIdentity(email);
    const span = {
      start: DATA_START_DAY * DAY_MS,
      end: this.options.horizons.visibleUntil(email, this.options.clock.now()),
    };
    for (const type of DATA_TYPES) {
      if (!NOTIFYING_TYPES.has(type.id)) continue;
      if (!this.covers(before, type) || this.covers(after, type)) continue;
      for (const subscriber of this.listeners(type)) {
        this.send(subscriber, healthUserId, 'DELETE', type, [span]);
        notifications += 1;
      }
    }
    return { revoked, notifications };
  }
}
