import {
  ADHERENCE_DEFAULT_DAYS,
  ADHERENCE_MAX_DAYS,
  ADHERENCE_MESSAGES,
  type AdherenceCellState,
  type AdherenceResponse,
  type AdherenceRow,
  DEFAULT_STUDY_SETTINGS,
  daysWithoutSync,
  HEART_RATE_CHART_MAX_POINTS,
  type HeartRateDayResponse,
  isAtRisk,
  isValidDay,
  type ParticipantChartsResponse,
} from '@research/contracts';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../errors.js';
import { civilDateIn, type Dataset, type DayRow, dayCell } from '../dataset/index.js';
import { liveParticipantsFingerprint, liveParticipantsOfStudy } from '../participants/index.js';
import type { StudyAccess } from '../studies/index.js';
import {
  connectionsFingerprint,
  connectionsOfStudy,
  type StudyConnection,
} from '../wearables/index.js';
import { lttbIndices } from './lttb.js';

export interface AdherenceDeps {
  db: Db;
  dataset: Dataset;
  now?: () => Date;
}

/**
 * Heat maps kept for the next look (a coordinator's screen refetches every 30 s, several people
 * watch one study): a kept answer is used while the study's participants, connections and day
 * cells in the range are as they were (three one-row digests) and it is younger than a minute,
 * so an at-risk flag that turns with the clock turns at most a minute late.
 */
const HEAT_MAP_KEEP_MS = 60_000;
const HEAT_MAPS_KEPT = 50;

/** The participant a chart is about (resolved by the participants module's access check). */
export interface ChartTarget {
  access: StudyAccess;
  participant: { id: string; studyId: string; enrolledAt: Date };
}

type Body<T> = Omit<T, 'success'>;

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The days from `from` to `to`, inclusive. */
function daysOf(from: string, to: string): string[] {
  const first = dayNumber(from);
  return Array.from({ length: dayNumber(to) - first + 1 }, (_, i) => dateOf(first + i));
}

/** The asked range, or the last 28 days to today (UTC); 400 when too long or backwards. */
export function rangeOf(query: { from?: string | undefined; to?: string | undefined }, now: Date) {
  const to =
    query.to ??
    (query.from
      ? dateOf(dayNumber(query.from) + ADHERENCE_DEFAULT_DAYS - 1)
      : now.toISOString().slice(0, 10));
  const from = query.from ?? dateOf(dayNumber(to) - ADHERENCE_DEFAULT_DAYS + 1);
  const length = dayNumber(to) - dayNumber(from) + 1;
  if (length < 1 || length > ADHERENCE_MAX_DAYS) {
    throw badRequest(ADHERENCE_MESSAGES.rangeTooLong, 'RANGE_TOO_LONG');
  }
  return { from, to, days: daysOf(from, to) };
}

function connectionState(connection: StudyConnection | undefined): AdherenceRow['connection'] {
  if (connection?.status === 'active') return 'connected';
  if (connection?.status === 'needs_reauthorization') return 'needs_reauthorization';
  return 'not_connected';
}

const settingsOf = (access: StudyAccess) => ({
  validDayMinHours:
    access.study.settings.validDayMinHours ?? DEFAULT_STUDY_SETTINGS.validDayMinHours,
  riskNoSyncDays: access.study.settings.riskNoSyncDays ?? DEFAULT_STUDY_SETTINGS.riskNoSyncDays,
});

/**
 * Adherence, read from the study dataset's ledger (docs/product.md#adherence): the study's heat
 * map, a participant's daily charts and one day's heart rate.
 */
export function createAdherenceService(deps: AdherenceDeps) {
  const { db, dataset } = deps;
  const now = deps.now ?? (() => new Date());

  const kept = new Map<
    string,
    { at: number; fingerprint: string; body: Body<AdherenceResponse> }
  >();

  async function heatMap(
    access: StudyAccess,
    query: { from?: string | undefined; to?: string | undefined },
  ): Promise<Body<AdherenceResponse>> {
    const at = now();
    const { from, to } = rangeOf(query, at);
    const rule = settingsOf(access);
    const studyId = access.study.id;
    const key = [studyId, from, to, rule.validDayMinHours, rule.riskNoSyncDays].join('|');
    const fingerprint = (
      await Promise.all([
        liveParticipantsFingerprint(db, studyId),
        connectionsFingerprint(db, studyId),
        dataset.dayStripsFingerprint(studyId, from, to),
      ])
    ).join('|');
    const found = kept.get(key);
    if (
      found &&
      found.fingerprint === fingerprint &&
      at.getTime() - found.at >= 0 &&
      at.getTime() - found.at < HEAT_MAP_KEEP_MS
    ) {
      return found.body;
    }
    const body = await buildHeatMap(access, { from, to }, at);
    kept.delete(key);
    kept.set(key, { at: at.getTime(), fingerprint, body });
    // The oldest kept answer goes first (a Map keeps insertion order).
    if (kept.size > HEAT_MAPS_KEPT) kept.delete(kept.keys().next().value as string);
    return body;
  }

  async function buildHeatMap(
    access: StudyAccess,
    query: { from: string; to: string },
    at: Date,
  ): Promise<Body<AdherenceResponse>> {
    const { from, to, days } = rangeOf(query, at);
    const rule = settingsOf(access);
    const studyId = access.study.id;
    const [participants, connections, strips] = await Promise.all([
      liveParticipantsOfStudy(db, studyId),
      connectionsOfStudy(db, studyId),
      dataset.dayStrips(studyId, from, to),
    ]);
    const connectionOf = new Map(connections.map((c) => [c.participantId, c]));
    const unplaced = participants.filter((p) => !strips.get(p.id)?.timeZone).map((p) => p.id);
    const zones = await dataset.latestTimeZones(studyId, unplaced);

    let connected = 0;
    let atRisk = 0;
    let validTotal = 0;
    let eligibleTotal = 0;
    const rows: AdherenceRow[] = participants.map((p) => {
      const strip = strips.get(p.id);
      const timeZone = strip?.timeZone ?? zones.get(p.id) ?? 'UTC';
      const enrolmentDay = civilDateIn(timeZone, p.enrolledAt);
      const today = civilDateIn(timeZone, at);
      const connection = connectionOf.get(p.id);
      const state = connectionState(connection);
      const risky =
        state === 'connected' &&
        connection !== undefined &&
        isAtRisk({
          lastDeviceSyncAt: connection.lastDeviceSyncAt,
          connectedAt: connection.connectedAt,
          now: at,
          riskNoSyncDays: rule.riskNoSyncDays,
        });
      if (state === 'connected') connected++;
      if (risky) atRisk++;
      // The strip's arrays become the row's (no copy): 45,000 cells for 500 × 90 days.
      const states = (strip?.states ??
        new Array(days.length).fill(null)) as (AdherenceCellState | null)[];
      const wearMinutes = strip?.wearMinutes ?? new Array<number | null>(days.length).fill(null);
      const steps = strip?.steps ?? new Array<number | null>(days.length).fill(null);
      const reasons = strip?.reasons ?? {};
      let validDays = 0;
      let eligibleDays = 0;
      for (let i = 0; i < days.length; i++) {
        const day = days[i] as string;
        if (day < enrolmentDay) {
          states[i] = 'not_enrolled';
          wearMinutes[i] = null;
          steps[i] = null;
          delete reasons[String(i)];
          continue;
        }
        if (states[i] === null) states[i] = 'not_collected';
        // A day is judged once it is over in the participant's zone.
        if (day < today) {
          eligibleDays++;
          if (isValidDay(wearMinutes[i] ?? null, rule.validDayMinHours)) validDays++;
        }
      }
      validTotal += validDays;
      eligibleTotal += eligibleDays;
      return {
        id: p.id,
        participantId: p.id,
        name: [p.firstName, p.lastName].filter(Boolean).join(' ') || null,
        enrolledAt: p.enrolledAt.toISOString(),
        connection: state,
        lastDeviceSyncAt: connection?.lastDeviceSyncAt?.toISOString() ?? null,
        batteryLevel: connection?.batteryLevel ?? null,
        daysWithoutSync: daysWithoutSync(connection?.lastDeviceSyncAt ?? null, at),
        atRisk: risky,
        validDays,
        eligibleDays,
        states: states as AdherenceCellState[],
        wearMinutes,
        steps,
        reasons,
      };
    });
    return {
      from,
      to,
      days,
      rule,
      summary: {
        enrolled: participants.length,
        connected,
        atRisk,
        validDayPercent:
          eligibleTotal === 0 ? null : Math.round((validTotal / eligibleTotal) * 1000) / 10,
      },
      participants: rows,
    };
  }

  /** The participant's zone: their latest collected day's, else UTC. */
  async function zoneOf(studyId: string, participantId: string) {
    const zones = await dataset.latestTimeZones(studyId, [participantId]);
    return zones.get(participantId) ?? 'UTC';
  }

  async function charts(
    target: ChartTarget,
    query: { from?: string | undefined; to?: string | undefined },
  ): Promise<Body<ParticipantChartsResponse>> {
    const { from, to, days } = rangeOf(query, now());
    const { participant } = target;
    const rows = await dataset.dayFigures(participant.studyId, participant.id, from, to);
    const timeZone = rows.at(-1)?.timeZone ?? (await zoneOf(participant.studyId, participant.id));
    const enrolmentDay = civilDateIn(timeZone, participant.enrolledAt);
    const byDay = new Map<string, typeof rows>();
    for (const row of rows) {
      const list = byDay.get(row.date);
      if (list) list.push(row);
      else byDay.set(row.date, [row]);
    }
    const figure = <K extends 'restingHeartRateBpm' | 'sleepMinutes' | 'sleepStages'>(
      dayRows: typeof rows,
      key: K,
      types: readonly string[],
    ) => {
      for (const type of types) {
        const value = dayRows.find((r) => r.dataType === type)?.[key];
        if (value !== null && value !== undefined) return value;
      }
      return null;
    };
    return {
      from,
      to,
      timeZone,
      days: days.map((date) => {
        const dayRows = byDay.get(date) ?? [];
        const cell = dayCell(dayRows as DayRow[]);
        const state: AdherenceCellState =
          date < enrolmentDay ? 'not_enrolled' : (cell?.state ?? 'not_collected');
        return {
          date,
          state,
          steps: cell?.steps ?? null,
          restingHeartRateBpm: figure(dayRows, 'restingHeartRateBpm', [
            'heartrate_summary',
            'heartrate_timeseries',
          ]),
          wearMinutes: cell?.wearMinutes ?? null,
          sleepMinutes: figure(dayRows, 'sleepMinutes', ['sleep_log']),
          sleepStages: figure(dayRows, 'sleepStages', ['sleep_log']),
        };
      }),
    };
  }

  async function heartRate(target: ChartTarget, date: string): Promise<Body<HeartRateDayResponse>> {
    const { participant } = target;
    const day = await dataset.heartRateDay(participant.studyId, participant.id, date);
    if (!day || day.timeMs.length === 0) {
      return {
        date,
        timeZone: day?.timeZone ?? (await zoneOf(participant.studyId, participant.id)),
        sampleCount: 0,
        downsampling: 'none',
        times: [],
        bpm: [],
      };
    }
    const x = day.timeMs as ArrayLike<number>;
    const y = day.bpm as ArrayLike<number>;
    const n = x.length;
    const lttb = n > HEART_RATE_CHART_MAX_POINTS;
    const picked = lttb ? lttbIndices(x, y, HEART_RATE_CHART_MAX_POINTS) : null;
    const length = picked ? picked.length : n;
    const times = new Array<number>(length);
    const bpm = new Array<number>(length);
    for (let i = 0; i < length; i++) {
      const at = picked ? (picked[i] as number) : i;
      times[i] = x[at] as number;
      bpm[i] = y[at] as number;
    }
    return {
      date,
      timeZone: day.timeZone,
      sampleCount: n,
      downsampling: lttb ? 'lttb' : 'none',
      times,
      bpm,
    };
  }

  return { heatMap, charts, heartRate };
}

export type AdherenceService = ReturnType<typeof createAdherenceService>;
