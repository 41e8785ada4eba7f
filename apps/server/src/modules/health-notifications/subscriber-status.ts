import {
  DATA_TYPES,
  type SUBSCRIBER_SETTINGS,
  type SubscriberLookupFailure,
  type SubscriberStatus,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import {
  createSubscribersClient,
  DEFAULT_SUBSCRIBER_ID,
  loadServiceAccountKey,
  NOTIFYING_DATA_TYPES,
  type Subscriber,
  SubscriberApiError,
  type SubscribersClient,
} from '../../platform/google-health/subscribers.js';
import { googleDataTypes } from '../extraction/index.js';

/** The data types the subscriber asks for: every notifying type behind the research types. */
export function subscribedDataTypes(): string[] {
  return googleDataTypes(DATA_TYPES).filter((type) => NOTIFYING_DATA_TYPES.has(type));
}

/** Google's answer is kept this long: the dashboard is reloaded often, Google need not be asked. */
const CACHE_MS = 30_000;
/** The dashboard waits no longer than this for Google (key file, token and list together). */
const LOOKUP_TIMEOUT_MS = 5_000;
const TIMED_OUT = Symbol('timed out');

export interface SubscriberStatusOptions {
  cacheMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The webhook subscriber as Google reports it, for the master's dashboard: this server's (its
 * endpoint is ours), else the one the CLI registers by default. Answers quickly whatever Google
 * does: one lookup at a time, a short cache, a time-out, and every failure becomes a status.
 */
export function createSubscriberStatus(config: AppConfig, options: SubscriberStatusOptions = {}) {
  const now = options.now ?? Date.now;
  const cacheMs = options.cacheMs ?? CACHE_MS;
  const timeoutMs = options.timeoutMs ?? LOOKUP_TIMEOUT_MS;
  const { webhooks, apiUrl } = config.googleHealth;
  let client: SubscribersClient | null = null;
  let cached: { status: SubscriberStatus; at: number } | null = null;
  let inFlight: Promise<{ status: SubscriberStatus; at: number }> | null = null;

  function missingSettings(): (typeof SUBSCRIBER_SETTINGS)[number][] {
    const missing: (typeof SUBSCRIBER_SETTINGS)[number][] = [];
    if (!webhooks.serviceAccount) missing.push('GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE');
    if (!webhooks.projectNumber) missing.push('GOOGLE_HEALTH_PROJECT_NUMBER');
    return missing;
  }

  /** Built as the CLI builds it; kept, so its access token is reused until it expires. */
  async function openClient(): Promise<SubscribersClient> {
    if (client) return client;
    const key = await loadServiceAccountKey(
      webhooks.serviceAccount as NonNullable<typeof webhooks.serviceAccount>,
    );
    client = createSubscribersClient({
      apiUrl,
      projectNumber: webhooks.projectNumber as string,
      key,
      timeoutMs,
    });
    return client;
  }

  function describe(found: Subscriber): SubscriberStatus {
    const automatic = new Set(
      found.subscriberConfigs
        .filter((c) => c.subscriptionCreatePolicy === 'AUTOMATIC')
        .flatMap((c) => c.dataTypes),
    );
    return {
      status: 'registered',
      name: found.name,
      state: found.state,
      endpointUri: found.endpointUri,
      isThisEndpoint: found.endpointUri === webhooks.endpointUrl,
      secretSet: found.secretSet,
      configs: found.subscriberConfigs.map((c) => ({
        subscriptionCreatePolicy: c.subscriptionCreatePolicy,
        dataTypes: c.dataTypes,
      })),
      missingDataTypes: subscribedDataTypes().filter((type) => !automatic.has(type)),
    };
  }

  async function lookUp(): Promise<SubscriberStatus> {
    const missing = missingSettings();
    if (missing.length > 0) return { status: 'not_configured', missing };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
    });
    try {
      const all = await Promise.race([openClient().then((c) => c.list()), timedOut]);
      if (all === TIMED_OUT) return { status: 'lookup_failed', reason: 'timeout', detail: '' };
      const found =
        all.find((s) => s.endpointUri === webhooks.endpointUrl) ??
        all.find((s) => s.id === DEFAULT_SUBSCRIBER_ID);
      if (found) return describe(found);
      return { status: 'not_registered', others: all.map((s) => s.name) };
    } catch (error) {
      // The client is built again next time (a key file fixed meanwhile is read again).
      client = null;
      // Anything else (a key the signing library refuses …) still leaves the card readable.
      if (!(error instanceof SubscriberApiError)) {
        return { status: 'lookup_failed', reason: 'unavailable', detail: '' };
      }
      return { status: 'lookup_failed', reason: failureOf(error), detail: error.message };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** The status, from Google or from the last CACHE_MS; never throws for Google's sake. */
    async current(): Promise<{ status: SubscriberStatus; checkedAt: string }> {
      if (!cached || now() - cached.at >= cacheMs) {
        inFlight ??= lookUp()
          .then((status) => ({ status, at: now() }))
          .finally(() => {
            inFlight = null;
          });
        cached = await inFlight;
      }
      return { status: cached.status, checkedAt: new Date(cached.at).toISOString() };
    },
  };
}

function failureOf(error: SubscriberApiError): SubscriberLookupFailure {
  switch (error.kind) {
    case 'key_file':
    case 'token':
    case 'unauthenticated':
    case 'permission_denied':
    case 'invalid_response':
      return error.kind;
    default:
      return 'unavailable';
  }
}
