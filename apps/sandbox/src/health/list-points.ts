import { DAY_MS } from './civil.js';
import { DATA_START_DAY, wakeDayOfSleepId } from './data-generator.js';
import { type Point, phonePointsOfUnit, pointsOfUnit } from './data-points.js';
import { camel, type TypeSpec } from './data-types.js';
import { invalidArgument, notFound } from './errors.js';
import type { FieldMask } from './field-mask.js';
import { type Filter, matches, parseFilter, physicalBounds } from './filter.js';
import { heartRatePageText, heartRateParts } from './heart-rate-list.js';
import {
  type Caller,
  DATA_SOURCE,
  familyHasPhone,
  familyOf,
  hasPhone,
  pageSizeOf,
  pageToken,
  queryHash,
  queryParam,
  readPageToken,
  visible,
} from './resource-common.js';

/** Lists without a lower bound look back this far (Google would page through all history). */
export const UNBOUNDED_LOOKBACK_DAYS = 31;

/** What a list answer depends on besides the request. */
export type ListCaller = Pick<Caller, 'email' | 'healthUserId' | 'now'>;

/**
 * A `list`/`reconcile` answer: an object for Fastify to serialise, or, for raw heart rate, the
 * same JSON already written as text (heart-rate-list.ts). `generic` forces the object, the
 * reference the golden test compares the text with.
 */
export function listPoints(
  caller: ListCaller,
  type: TypeSpec,
  query: URLSearchParams,
  reconcile: boolean,
  self: boolean,
  options: { generic?: boolean; fields?: FieldMask | null } = {},
): Record<string, unknown> | string {
  if (type.kind === 'aggregate' || (!reconcile && !type.list)) {
    throw invalidArgument(`List is not supported for data type ${type.id}.`);
  }
  const filterText = queryParam(query, 'filter');
  const filter: Filter = parseFilter(type, filterText);
  const family = familyOf(type, queryParam(query, 'dataSourceFamily'));
  const small = type.id === 'sleep' || type.id === 'exercise';
  const size = pageSizeOf(queryParam(query, 'pageSize'), small ? 25 : 1440, small ? 25 : 10_000);
  const hash = queryHash([
    reconcile ? 'reconcile' : 'list',
    caller.healthUserId,
    type.id,
    filterText ?? '',
    size,
    family,
  ]);
  const cursor = readPageToken(queryParam(query, 'pageToken'), hash);
  if (self || family === 'self-sources') return {};

  const now = caller.now;
  const bounds = physicalBounds(filter);
  const hi = Math.min(bounds.hi ?? now, now + DAY_MS);
  const lo = bounds.lo ?? hi - UNBOUNDED_LOOKBACK_DAYS * DAY_MS;
  const exact = type.kind === 'interval' || type.kind === 'sample';
  let first = exact ? Math.floor(lo / DAY_MS) : Math.floor(lo / DAY_MS) - 1;
  const last = exact ? Math.floor((hi - 1) / DAY_MS) : Math.floor(hi / DAY_MS) + 1;
  first = Math.max(first, DATA_START_DAY);

  // The phone's points, where the family takes them (reconcile merges sources: the tracker's).
  const phone = !reconcile && hasPhone(caller.email) && familyHasPhone(family);
  const parts = heartRateParts(options.fields ?? null);
  if (type.id === 'heart-rate' && type.generated && !options.generic && parts && !phone) {
    return heartRatePageText({
      parts,
      email: caller.email,
      now,
      filter,
      cursor,
      size,
      first,
      last,
      reconcile,
      nextPageToken: (lastKey) => pageToken(hash, lastKey),
    });
  }
  const collected: Point[] = [];
  for (let unit = last; unit >= first && collected.length <= size; unit--) {
    const generated = pointsOfUnit(type, caller.email, caller.healthUserId, unit);
    if (phone) generated.push(...phonePointsOfUnit(type, caller.email, unit));
    const points = generated.filter(
      (p) =>
        (cursor === null || p.key < cursor) && visible(type, p, now) && matches(filter, p.members),
    );
    points.sort((a, b) => b.key - a.key);
    collected.push(...points);
  }
  const page = collected.slice(0, size);
  const key = camel(type.id);
  const dataPoints = page.map((p) =>
    reconcile
      ? { ...(p.name ? { dataPointName: p.name } : {}), [key]: p.payload }
      : {
          ...(p.name ? { name: p.name } : {}),
          dataSource: { recordingMethod: p.recordingMethod, ...(p.source ?? DATA_SOURCE) },
          [key]: p.payload,
        },
  );
  const lastPoint = page.at(-1);
  return {
    ...(dataPoints.length ? { dataPoints } : {}),
    ...(collected.length > size && lastPoint
      ? { nextPageToken: pageToken(hash, lastPoint.key) }
      : {}),
  };
}

/** `get` for sleep, the one identifiable type generated here: the bare DataPoint. */
export function getSleep(caller: Caller, type: TypeSpec, id: string) {
  const wakeDay = wakeDayOfSleepId(id);
  if (type.id !== 'sleep' || wakeDay === null || wakeDay < DATA_START_DAY) throw notFound();
  const [point] = pointsOfUnit(type, caller.email, caller.healthUserId, wakeDay);
  if (!point?.name?.endsWith(`/${id}`) || !visible(type, point, caller.now)) throw notFound();
  return {
    name: point.name,
    dataSource: { recordingMethod: point.recordingMethod, ...DATA_SOURCE },
    sleep: point.payload,
  };
}
