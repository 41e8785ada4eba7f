import {
  COLLECTION_REASONS,
  DATA_TYPE_SCOPES,
  type DatasetTrigger,
  type DataType,
  scopeLabel,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import {
  createGoogleHealthClient,
  type GoogleHealthClientOptions,
  GoogleHealthError,
} from '../../platform/google-health/index.js';
import type { Dataset, RawPage } from '../dataset/index.js';
import {
  callsFor,
  createProviderCall,
  type DbQuota,
  missingScopes,
  type PlannedCall,
} from '../extraction/index.js';
import type { CollectionTarget, WearablesService } from '../wearables/index.js';

/**
 * A participant's days fetched and kept: for each type and civil day (in the participant's time
 * zone, from their Google settings) the extraction's planned calls for that one day, made through
 * the extraction's provider call and shared quota, and the answers written as the day's partition.
 * A dead grant marks the days `revoked` and stops; a type without its scope is `scope_missing`;
 * any other failure marks that partition `failed` with the reason, and the rest goes on.
 */

const SETTINGS_SCOPE = 'https://www.googleapis.com/auth/googlehealth.settings.readonly';

export interface CollectDeps {
  config: AppConfig;
  dataset: Dataset;
  wearables: WearablesService;
  quota: DbQuota;
  fetch: typeof fetch;
  clientOptions?: Omit<GoogleHealthClientOptions, 'fetch'> | undefined;
}

/** What a connection's fetches share: its token, time zone and device's last sync. */
export interface Session {
  target: CollectionTarget;
  timeZone: string;
  syncedThrough: Date | undefined;
  fetchDay: (dataType: DataType, date: string, signal?: AbortSignal) => Promise<RawPage[]>;
}

/** The grant is dead (invalid_grant, or the connection already needs reauthorization). */
export class GrantRevoked extends Error {
  constructor() {
    super(COLLECTION_REASONS.revoked);
    this.name = 'GrantRevoked';
  }
}

const isDeadGrant = (error: unknown) =>
  error instanceof GrantRevoked ||
  (error instanceof AppError &&
    (error.code === 'NEEDS_REAUTHORIZATION' || error.code === 'NOT_CONNECTED')) ||
  (error instanceof GoogleHealthError && error.kind === 'invalid_grant');

export interface CollectResult {
  written: number;
  marked: { failed: number; scopeMissing: number; revoked: number };
  /** Provider requests made (quota slots taken). */
  calls: number;
}

export function createCollect(deps: CollectDeps) {
  const { dataset, wearables } = deps;

  /** Opens a session for the connection: one settings and one paired-devices call. */
  async function openSession(
    target: CollectionTarget,
    counter: { calls: number },
    signal?: AbortSignal,
  ) {
    const quotaFetch: typeof fetch = async (input, init) => {
      signal?.throwIfAborted();
      // Background work: refused (DailyBudgetSpent) once the day's budget is spent; nothing is
      // marked then, the days wait for the next sweep.
      await deps.quota.acquire(target.healthUserId, signal, { withinDailyBudget: true });
      counter.calls += 1;
      return deps.fetch(input, init);
    };
    let token = await wearables.accessToken(target.participantId);
    /** An access token that died mid-way is refreshed once (a dead grant throws there). */
    async function withToken<T>(work: (token: string) => Promise<T>): Promise<T> {
      try {
        return await work(token);
      } catch (error) {
        if (!(error instanceof GoogleHealthError && error.kind === 'unauthenticated')) throw error;
        await wearables.refresh(target.participantId);
        token = await wearables.accessToken(target.participantId);
        return work(token);
      }
    }
    const client = createGoogleHealthClient(deps.config.googleHealth, {
      ...deps.clientOptions,
      fetch: quotaFetch,
    });
    const exchange = createProviderCall({
      endpoints: deps.config.googleHealth,
      clientOptions: deps.clientOptions,
      fetch: quotaFetch,
      beforeEach: async () => {},
    });

    // Without the settings scope there is no time zone or device to ask: days are UTC days and
    // their state follows the clock alone.
    const settingsGranted = target.grantedScopes.includes(SETTINGS_SCOPE);
    let timeZone = 'UTC';
    let syncedThrough: Date | undefined;
    if (settingsGranted) {
      const settings = await withToken((t) => client.getSettings(t));
      if (typeof settings.timeZone === 'string' && validZone(settings.timeZone)) {
        timeZone = settings.timeZone;
      }
      const devices = await withToken((t) => client.listPairedDevices(t));
      syncedThrough = lastSync(devices.pairedDevices ?? []);
      // The researcher's screen shows it ("Last synced"), whatever the days fetched below.
      if (syncedThrough)
        await wearables.recordDeviceSync(
          target.participantId,
          syncedThrough,
          devices.pairedDevices,
        );
    }

    async function fetchDay(dataType: DataType, date: string, daySignal?: AbortSignal) {
      const pages: RawPage[] = [];
      for (const call of callsFor(dataType, date, date, target.grantedScopes)) {
        let pageToken: string | null = null;
        do {
          daySignal?.throwIfAborted();
          const page: { bytes: Buffer; body: unknown } = await withToken((t) =>
            exchange(t, call as PlannedCall, pageToken, null),
          );
          pages.push({ call: call.spec.key, body: page.bytes });
          pageToken = (page.body as { nextPageToken?: string }).nextPageToken || null;
        } while (pageToken);
      }
      return pages;
    }

    const session: Session = { target, timeZone, syncedThrough, fetchDay };
    return { session };
  }

  /**
   * Fetches and writes each (type, day) of `days`; `days` may depend on the session (the
   * participant's time zone and "today"). Writing the same answers again changes nothing but the
   * fetch time, so a retried job leaves the same partitions.
   */
  async function collect(
    participantId: string,
    days: (session: Session) => Promise<Map<DataType, string[]>> | Map<DataType, string[]>,
    trigger: DatasetTrigger,
    signal?: AbortSignal,
  ): Promise<CollectResult> {
    const result: CollectResult = {
      written: 0,
      marked: { failed: 0, scopeMissing: 0, revoked: 0 },
      calls: 0,
    };
    const [target] = await wearables.collectionTargets(participantId);
    if (!target) return result;
    const { studyId } = target;
    const counter = { calls: 0 };

    let opened: Awaited<ReturnType<typeof openSession>> | undefined;
    try {
      if (target.status !== 'active') throw new GrantRevoked();
      opened = await openSession(target, counter, signal);
    } catch (error) {
      const dead = isDeadGrant(error);
      if (!dead && !(error instanceof GoogleHealthError)) throw error;
      // No session: the days are marked in the time zone the participant's rows already use;
      // a provider failure here (settings, devices) marks them failed, for the next sweep.
      const none = deadSession(target, await knownTimeZone(studyId, participantId));
      const plan = await days(none);
      const marked = await markAll(
        target,
        plan,
        none.timeZone,
        dead ? 'revoked' : 'failed',
        dead ? COLLECTION_REASONS.revoked : COLLECTION_REASONS.failed((error as Error).message),
      );
      if (dead) result.marked.revoked += marked;
      else result.marked.failed += marked;
      result.calls = counter.calls;
      return result;
    }
    const { session } = opened;
    const plan = await days(session);
    const todo = [...plan.entries()];
    for (let t = 0; t < todo.length; t++) {
      const [dataType, dates] = todo[t] as [DataType, string[]];
      if (dates.length === 0) continue;
      const missing = missingScopes(dataType, target.grantedScopes);
      if (missing.length > 0) {
        await dataset.markPartitions(
          { studyId, participantId, types: [dataType], dates, timeZone: session.timeZone },
          'scope_missing',
          COLLECTION_REASONS.scopeMissing(missing.map(scopeLabel).join(', ')),
        );
        result.marked.scopeMissing += dates.length;
        continue;
      }
      for (let d = 0; d < dates.length; d++) {
        const date = dates[d] as string;
        try {
          const rawPages = await session.fetchDay(dataType, date, signal);
          await dataset.writePartition({
            studyId,
            participantId,
            type: dataType,
            date,
            timeZone: session.timeZone,
            rawPages,
            trigger,
            syncedThrough: session.syncedThrough,
          });
          result.written += 1;
        } catch (error) {
          if (signal?.aborted) throw error;
          if (isDeadGrant(error)) {
            // Everything not yet written is revoked: no more calls for this connection.
            const rest = new Map<DataType, string[]>([[dataType, dates.slice(d)]]);
            for (const [later, laterDates] of todo.slice(t + 1)) rest.set(later, laterDates);
            result.marked.revoked += await markAll(
              target,
              rest,
              session.timeZone,
              'revoked',
              COLLECTION_REASONS.revoked,
            );
            result.calls = counter.calls;
            return result;
          }
          if (!(error instanceof GoogleHealthError)) throw error;
          const scope = error.kind === 'permission_denied';
          await dataset.markPartitions(
            {
              studyId,
              participantId,
              types: [dataType],
              dates: [date],
              timeZone: session.timeZone,
            },
            scope ? 'scope_missing' : 'failed',
            scope
              ? // Google refused the type's scope though the grant lists it (taken back since).
                COLLECTION_REASONS.scopeMissing(
                  DATA_TYPE_SCOPES[dataType].map(scopeLabel).join(', '),
                )
              : COLLECTION_REASONS.failed(error.message),
          );
          if (scope) result.marked.scopeMissing += 1;
          else result.marked.failed += 1;
        }
      }
    }
    result.calls = counter.calls;
    return result;
  }

  async function markAll(
    target: CollectionTarget,
    plan: Map<DataType, string[]>,
    timeZone: string,
    state: 'revoked' | 'failed',
    reason: string,
  ) {
    let marked = 0;
    for (const [dataType, dates] of plan) {
      if (dates.length === 0) continue;
      await dataset.markPartitions(
        {
          studyId: target.studyId,
          participantId: target.participantId,
          types: [dataType],
          dates,
          timeZone,
        },
        state,
        reason,
      );
      marked += dates.length;
    }
    return marked;
  }

  /** The time zone of the participant's latest partition, UTC when there is none. */
  async function knownTimeZone(studyId: string, participantId: string) {
    const rows = await dataset.readLedger({ studyId, participantId });
    const latest = rows.reduce<(typeof rows)[number] | undefined>(
      (best, row) => (!best || row.date > best.date ? row : best),
      undefined,
    );
    return latest?.timeZone ?? 'UTC';
  }

  const deadSession = (target: CollectionTarget, timeZone: string): Session => ({
    target,
    timeZone,
    syncedThrough: undefined,
    fetchDay: () => Promise.reject(new GrantRevoked()),
  });

  return collect;
}

export type Collect = ReturnType<typeof createCollect>;

function validZone(timeZone: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The latest sync among the paired devices, if any reported one. */
function lastSync(devices: { lastSyncTime?: string }[]): Date | undefined {
  let latest: number | undefined;
  for (const device of devices) {
    const at = device.lastSyncTime ? Date.parse(device.lastSyncTime) : Number.NaN;
    if (!Number.isNaN(at) && (latest === undefined || at > latest)) latest = at;
  }
  return latest === undefined ? undefined : new Date(latest);
}
