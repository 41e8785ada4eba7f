import { DAY_MS, parseCivil, parseInstant, parseIsoDate } from './civil.js';
import { DATA_TYPES, type RecordKind, snake, type TypeSpec } from './data-types.js';
import { filterError } from './errors.js';

/** One comparison of a filter, its literal already turned into a number (ms or local ms). */
export interface Comparison {
  member: string;
  op: '>=' | '<';
  value: number;
  /** How the member relates to physical time: exact instant, or local wall time. */
  flavour: 'instant' | 'civil';
}

/** OR of AND groups (only sleep may use OR). */
export type Filter = Comparison[][];

const MEMBERS: Record<RecordKind, Record<string, 'instant' | 'civil' | 'date'>> = {
  interval: { 'interval.start_time': 'instant', 'interval.civil_start_time': 'civil' },
  sample: { 'sample_time.physical_time': 'instant', 'sample_time.civil_time': 'civil' },
  daily: { date: 'date' },
  session: { 'interval.civil_start_time': 'civil' },
  sleep: { 'interval.end_time': 'instant', 'interval.civil_end_time': 'civil' },
  aggregate: {},
};

const COMPARISON = /^\(?\s*([A-Za-z0-9_.]+)\s*(>=|<=|!=|>|<|=)\s*"([^"]*)"\s*\)?$/;

/** Parses the AIP-160 subset the Health API accepts for dataPoints filters, with its error reasons. */
export function parseFilter(type: TypeSpec, text: string | null): Filter {
  if (text === null || !text.trim()) return [[]];
  const groups = text.trim().split(/\s+OR\s+/);
  if (groups.length > 1 && type.kind !== 'sleep') {
    throw filterError(
      'INVALID_DATA_POINT_FILTER_OPERATOR',
      'OR is only supported for the sleep data type.',
    );
  }
  const prefix = snake(type.id);
  let column = 1;
  return groups.map((group) =>
    group.split(/\s+AND\s+/).map((term) => {
      const match = COMPARISON.exec(term.trim());
      if (!match) {
        throw filterError(
          'INVALID_DATA_POINT_FILTER_SYNTAX',
          `Cannot parse '${term.trim()}'. (at line 1, column ${column})`,
        );
      }
      const [, member = '', op = '', literal = ''] = match;
      const at = `(at line 1, column ${column})`;
      column += term.length + 5;
      const dot = member.indexOf('.');
      const head = dot < 0 ? member : member.slice(0, dot);
      const rest = dot < 0 ? '' : member.slice(dot + 1);
      if (head !== prefix) {
        const other = DATA_TYPES.some((t) => snake(t.id) === head);
        throw filterError(
          other
            ? 'INVALID_DATA_POINT_FILTER_COLLECTION_MISMATCH'
            : 'INVALID_DATA_POINT_FILTER_DATA_TYPE_RESTRICTION',
          other
            ? `Member '${member}' refers to another data type than '${type.id}'. ${at}`
            : `Member '${member}' matches no data type. ${at}`,
        );
      }
      const flavour = MEMBERS[type.kind][rest];
      if (!flavour) {
        throw filterError(
          'INVALID_DATA_POINT_FILTER_DATA_TYPE_MEMBER',
          `Member '${member}' is not supported for filtering. ${at}`,
        );
      }
      if (op !== '>=' && op !== '<') {
        throw filterError(
          'INVALID_DATA_POINT_FILTER_OPERATOR',
          `Operator '${op}' is not supported; use >= and <. ${at}`,
        );
      }
      let value: number | null;
      if (flavour === 'instant') value = parseInstant(literal);
      else if (flavour === 'date') {
        const day = parseIsoDate(literal);
        value = day === null ? null : day * DAY_MS;
      } else value = parseCivil(literal);
      if (value === null) {
        throw filterError(
          flavour === 'instant'
            ? 'INVALID_DATA_POINT_FILTER_TIMESTAMP_FORMAT'
            : 'INVALID_DATA_POINT_FILTER_CIVIL_DATE_TIME_FORMAT',
          `Invalid value "${literal}" for member '${member}'. ${at}`,
        );
      }
      return {
        member: rest,
        op,
        value,
        flavour: flavour === 'instant' ? 'instant' : 'civil',
      } satisfies Comparison;
    }),
  );
}

export function matches(filter: Filter, members: Record<string, number>): boolean {
  return filter.some((group) =>
    group.every((c) => {
      const v = members[c.member];
      if (v === undefined) return false;
      return c.op === '>=' ? v >= c.value : v < c.value;
    }),
  );
}

const EARLIEST_OFFSET_MS = 14 * 3_600_000;
const LATEST_OFFSET_MS = 12 * 3_600_000;

/**
 * The physical time span that can hold matching points: local wall times are widened by the
 * extreme UTC offsets (-12 h … +14 h). `null` ends mean "unbounded".
 */
export function physicalBounds(filter: Filter): { lo: number | null; hi: number | null } {
  let lo: number | null = Number.POSITIVE_INFINITY;
  let hi: number | null = Number.NEGATIVE_INFINITY;
  for (const group of filter) {
    let gLo: number | null = null;
    let gHi: number | null = null;
    for (const c of group) {
      if (c.op === '>=') {
        const v = c.flavour === 'instant' ? c.value : c.value - EARLIEST_OFFSET_MS;
        gLo = gLo === null ? v : Math.max(gLo, v);
      } else {
        const v = c.flavour === 'instant' ? c.value : c.value + LATEST_OFFSET_MS;
        gHi = gHi === null ? v : Math.min(gHi, v);
      }
    }
    lo = lo === null || gLo === null ? null : Math.min(lo, gLo);
    hi = hi === null || gHi === null ? null : Math.max(hi, gHi);
  }
  return { lo, hi };
}
