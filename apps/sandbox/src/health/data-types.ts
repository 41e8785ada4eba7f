/** How a type's points are timed, which decides its filter members. */
export type RecordKind = 'interval' | 'sample' | 'daily' | 'session' | 'sleep' | 'aggregate';

/** Scope areas. */
export type ScopeArea =
  | 'activity_and_fitness'
  | 'health_metrics_and_measurements'
  | 'sleep'
  | 'nutrition';

export interface TypeSpec {
  /** kebab-case, as in URL paths */
  id: string;
  kind: RecordKind;
  area: ScopeArea;
  /** `list`/`reconcile` offered */
  list: boolean;
  /** `rollUp`/`dailyRollUp` offered */
  rollUp: boolean;
  /** 14 or 90 days for the rollups */
  capDays: number;
  /** false: a known type the simulated people have no data for (answers are empty) */
  generated: boolean;
}

const AF = 'activity_and_fitness';
const HM = 'health_metrics_and_measurements';

function spec(
  id: string,
  kind: RecordKind,
  area: ScopeArea,
  list: boolean,
  rollUp: boolean,
  generated: boolean,
  capDays = 90,
): TypeSpec {
  return { id, kind, area, list, rollUp, capDays, generated };
}

export const DATA_TYPES: readonly TypeSpec[] = [
  spec('steps', 'interval', AF, true, true, true),
  spec('distance', 'interval', AF, true, true, true),
  spec('active-energy-burned', 'interval', AF, true, true, true),
  spec('floors', 'interval', AF, false, true, true),
  spec('altitude', 'interval', AF, true, true, true),
  spec('active-minutes', 'interval', AF, true, true, true, 14),
  spec('active-zone-minutes', 'interval', AF, true, true, true),
  spec('sedentary-period', 'interval', AF, true, true, true),
  spec('time-in-heart-rate-zone', 'interval', AF, true, true, true),
  spec('total-calories', 'aggregate', AF, false, true, true, 14),
  spec('calories-in-heart-rate-zone', 'aggregate', AF, false, true, true, 14),
  spec('heart-rate', 'sample', HM, true, true, true, 14),
  spec('daily-resting-heart-rate', 'daily', HM, true, true, true),
  spec('daily-heart-rate-zones', 'daily', HM, true, false, true),
  spec('sleep', 'sleep', 'sleep', true, false, true),
  // Known to the API, never generated here: lists come back empty, rollups without buckets.
  spec('activity-level', 'interval', AF, true, false, false),
  spec('swim-lengths-data', 'interval', AF, true, true, false),
  spec('exercise', 'session', AF, true, false, false),
  spec('vo2-max', 'sample', AF, true, false, false),
  spec('run-vo2-max', 'sample', AF, true, true, false),
  spec('daily-vo2-max', 'daily', AF, true, false, false),
  spec('heart-rate-variability', 'sample', HM, true, false, false),
  spec('daily-heart-rate-variability', 'daily', HM, true, false, false),
  spec('oxygen-saturation', 'sample', HM, true, false, false),
  spec('daily-oxygen-saturation', 'daily', HM, true, false, false),
  spec('daily-respiratory-rate', 'daily', HM, true, false, false),
  spec('respiratory-rate-sleep-summary', 'sample', HM, true, false, false),
  spec('daily-sleep-temperature-derivations', 'daily', HM, true, false, false),
  spec('core-body-temperature', 'sample', HM, true, true, false),
  spec('weight', 'sample', HM, true, true, false),
  spec('height', 'sample', HM, true, false, false),
  spec('body-fat', 'sample', HM, true, true, false),
  spec('blood-glucose', 'sample', HM, true, true, false),
  spec('nutrition-log', 'session', 'nutrition', true, true, false),
  spec('hydration-log', 'session', 'nutrition', true, true, false),
];

export function findType(id: string): TypeSpec | undefined {
  return DATA_TYPES.find((t) => t.id === id);
}

export const camel = (id: string) => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const snake = (id: string) => id.replace(/-/g, '_');
