import {
  COLLECTION_REASONS,
  DATA_TYPE_SCOPES,
  type DatasetTrigger,
  type DataType,
  scopeLabel,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import {
  createGoogleHealthClient,
  type GoogleHealthClientOptions,
  GoogleHealthError,
} from '../../platform/google-health/index.js';
import type { ConsentHold, GateSubject } from '../consent/index.js';
import { civilDateIn, type Dataset, type PartitionWrite, type RawPage } from '../dataset/index.js';
import {
  addDays,
  callsFor,
  createProviderCall,
  cutToDays,
  DayCutError,
  type DbQuota,
  missingScopes,
  type PlannedCall,
} from '../extraction/index.js';
import type { CollectionTarget, WearablesService } from '../wearables/index.js';
import { backfillTrigger, type FetchUnit, fetchUnits } from './units.js';

/**
 * A participant's days fetched and kept: for each type and civil day (in the participant's time
 * zone, from their Google settings) the extraction's planned calls for that one day, made through
 * the extraction's provider call and shared quota, and the answers written as the day's partition.
 * A sweep's (or a new connection's) runs of older days, a backfill, are fetched with range calls and
 * each answer cut into the days' pages (units.ts); a range's days are written only once all its
 * calls answered.
 * A dead grant marks the days `revoked` and stops; a type without its scope is `scope_missing`;
 * any other failure marks that partition (or the range's partitions) `failed` with the reason, and
 * the rest goes on.
 */

const SETTINGS_SCOPE = 'https://www.googleapis.com/auth/googlehealth.settings.readonly';

export interface CollectDeps {
  config: AppConfig;
  dataset: Dataset;
  wearables: WearablesService;
  quota: DbQuota;
  fetch: typeof fetch;
  clientOptions?: Omit<GoogleHealthClientOptions, 'fetch'> | undefined;
  /** The clock that says which days are in the restatement window. */
  now?: () => Date;
  /** The consent gate: why a participant may not be fetched, or null (read on `tx` if given). */
  holdOf: (subject: GateSubject, tx?: DbOrTx) => Promise<ConsentHold | null>;
}

/** The gate closed between the fetch and the write (a withdrawal came in): nothing is written. */
class HeldBack extends Error {
  constructor(readonly hold: ConsentHold) {
    super(`held back: ${hold}`);
  }
}

/** What a connection's fetches share: its token, time zone and device's last sync. */
export interface Session {
  target: CollectionTarget;
  timeZone: string;
  syncedThrough: Date | undefined;
  fetchDay: (dataType: DataType, date: string, signal?: AbortSignal) => Promise<RawPage[]>;
  /** The days [from, to] (inclusive) by range calls: each day's pages, cut from the answers. */
  fetchRange: (
    dataType: DataType,
    from: string,
    to: string,
    signal?: AbortSignal,
  ) => Promise<Map<string, RawPage[]>>;
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
  /** Nothing was fetched: the participant is held back for consent (the gate said why). */
  heldBack?: ConsentHold;
}

export function createCollect(deps: CollectDeps) {
  const { dataset, wearables } = deps;
  const now = deps.now ?? (() => new Date());

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
    // their state follows the clock alone. The zone also cuts the minute roll-ups' days (their
    // buckets carry no offset): a partition holds its own local day's minutes.
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

    /** Every page of one call, as received. */
    async function fetchCall(call: PlannedCall, callSignal?: AbortSignal) {
      const pages: { bytes: Buffer; body: unknown }[] = [];
      let pageToken: string | null = null;
      do {
        callSignal?.throwIfAborted();
        const page: { bytes: Buffer; body: unknown } = await withToken((t) =>
          exchange(t, call, pageToken, null),
        );
        pages.push(page);
        pageToken = (page.body as { nextPageToken?: string }).nextPageToken || null;
      } while (pageToken);
      return pages;
    }

    async function fetchDay(dataType: DataType, date: string, daySignal?: AbortSignal) {
      const pages: RawPage[] = [];
      for (const call of callsFor(dataType, date, date, target.grantedScopes)) {
        for (const page of await fetchCall({ ...call, timeZone }, daySignal)) {
          pages.push({ call: call.spec.key, body: page.bytes });
        }
      }
      return pages;
    }

    async function fetchRange(
      dataType: DataType,
      from: string,
      to: string,
      rangeSignal?: AbortSignal,
    ) {
      const days = new Map<string, RawPage[]>();
      for (let date = from; date <= to; date = addDays(date, 1)) days.set(date, []);
      // callsFor lists each spec's pieces in order, so each day gets its pages in the order of
      // its own one-day calls.
      for (const planned of callsFor(dataType, from, to, target.grantedScopes)) {
        // Minute roll-ups are cut at the local midnights of the zone the days are in.
        const call = { ...planned, timeZone };
        const pages = await fetchCall(call, rangeSignal);
        const key = call.spec.key;
        if (call.from && call.to && addDays(call.from, 1) === call.to) {
          // A one-day piece is the day's own call: its pages as received.
          for (const page of pages) days.get(call.from)?.push({ call: key, body: page.bytes });
          continue;
        }
        const cut = cutToDays(
          call,
          pages.map((page) => page.body),
        );
        for (const [date, body] of cut) days.get(date)?.push({ call: key, body });
      }
      return days;
    }

    const session: Session = { target, timeZone, syncedThrough, fetchDay, fetchRange };
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
    const counter = { calls: 0 };
    try {
      return await collectInto(result, counter, participantId, days, trigger, signal);
    } catch (error) {
      if (!(error instanceof HeldBack)) throw error;
      return { ...result, calls: counter.calls, heldBack: error.hold };
    }
  }

  async function collectInto(
    result: CollectResult,
    counter: { calls: number },
    participantId: string,
    days: (session: Session) => Promise<Map<DataType, string[]>> | Map<DataType, string[]>,
    trigger: DatasetTrigger,
    signal?: AbortSignal,
  ): Promise<CollectResult> {
    const [target] = await wearables.collectionTargets(participantId);
    if (!target) return result;
    const { studyId } = target;
    // Checked here, in the job, before any call: no consent to the version in force, no fetch.
    // Asked again at every write or mark, in its transaction (gateAt).
    const hold = await deps.holdOf({ participantId, studyId });
    if (hold) return { ...result, heldBack: hold };

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
          gateAt(target),
        );
        result.marked.scopeMissing += dates.length;
        continue;
      }
      // A notification's days stay a day at a time, as received: they are what Google said changed.
      const units =
        trigger.kind === 'sweep'
          ? fetchUnits(dataType, dates, windowStart(session), target.grantedScopes)
          : dates.map((date): FetchUnit => ({ kind: 'day', date, dates: [date] }));
      for (let u = 0; u < units.length; u++) {
        const unit = units[u] as FetchUnit;
        try {
          if (unit.kind === 'day') {
            const rawPages = await session.fetchDay(dataType, unit.date, signal);
            await write(session, dataType, unit.date, rawPages, trigger);
          } else {
            // Every call of the range first: a failure leaves none of its days half-written.
            const days = await session.fetchRange(dataType, unit.from, unit.to, signal);
            const derived = backfillTrigger(trigger, unit.from, unit.to);
            // The range's days are written as one unit: one transaction, their rows together.
            await dataset.writePartitions(
              [...days].map(([date, rawPages]) =>
                partitionWrite(session, dataType, date, rawPages, derived),
              ),
              gateAt(session.target),
            );
          }
          result.written += unit.dates.length;
        } catch (error) {
          if (signal?.aborted) throw error;
          if (isDeadGrant(error)) {
            // Everything not yet written is revoked: no more calls for this connection.
            const rest = new Map<DataType, string[]>([
              [dataType, units.slice(u).flatMap((later) => later.dates)],
            ]);
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
          if (!(error instanceof GoogleHealthError) && !(error instanceof DayCutError)) throw error;
          const scope = error instanceof GoogleHealthError && error.kind === 'permission_denied';
          await dataset.markPartitions(
            {
              studyId,
              participantId,
              types: [dataType],
              dates: unit.dates,
              timeZone: session.timeZone,
            },
            scope ? 'scope_missing' : 'failed',
            scope
              ? // Google refused the type's scope though the grant lists it (taken back since).
                COLLECTION_REASONS.scopeMissing(
                  DATA_TYPE_SCOPES[dataType].map(scopeLabel).join(', '),
                )
              : COLLECTION_REASONS.failed(error.message),
            gateAt(target),
          );
          if (scope) result.marked.scopeMissing += unit.dates.length;
          else result.marked.failed += unit.dates.length;
        }
      }
    }
    result.calls = counter.calls;
    return result;
  }

  const partitionWrite = (
    session: Session,
    dataType: DataType,
    date: string,
    rawPages: RawPage[],
    trigger: DatasetTrigger,
  ): PartitionWrite => ({
    studyId: session.target.studyId,
    participantId: session.target.participantId,
    type: dataType,
    date,
    timeZone: session.timeZone,
    rawPages,
    trigger,
    syncedThrough: session.syncedThrough,
  });

  function write(
    session: Session,
    dataType: DataType,
    date: string,
    rawPages: RawPage[],
    trigger: DatasetTrigger,
  ) {
    return dataset.writePartition({
      ...partitionWrite(session, dataType, date, rawPages, trigger),
      guard: gateAt(session.target),
    });
  }

  /**
   * The gate asked again in the write's transaction: a withdrawal that came in while the day was
   * fetched keeps it out (the withdrawal waits for writes already under way).
   */
  const gateAt = (subject: GateSubject) => async (tx: DbOrTx) => {
    const hold = await deps.holdOf(subject, tx);
    if (hold) throw new HeldBack(hold);
  };

  /** The first day of the restatement window in the session's time zone: older days may be ranged. */
  const windowStart = (session: Session) =>
    addDays(civilDateIn(session.timeZone, now()), -(deps.config.collection.restatementDays - 1));

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
        gateAt(target),
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
    fetchRange: () => Promise.reject(new GrantRevoked()),
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
