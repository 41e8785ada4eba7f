-- The day cells of the ledger rows written before the read model existed: the rule of
-- modules/dataset/day-cells.ts (docs/product.md#adherence) once in SQL; every later write keeps
-- the rows in step from the same function.
WITH source AS (
  SELECT DISTINCT ON (study_id, participant_id, date)
    study_id, participant_id, date, data_type, state, reason, time_zone, wear_minutes
  FROM dataset_partitions
  ORDER BY study_id, participant_id, date,
    CASE data_type WHEN 'heartrate_intraday_1sec' THEN 0 WHEN 'heartrate_intraday_1min' THEN 1 ELSE 2 END,
    array_position(ARRAY['complete', 'partial', 'revoked', 'deleted_at_source', 'scope_missing', 'failed', 'empty'], state)
), figures AS (
  SELECT study_id, participant_id, date,
    coalesce(max(steps) FILTER (WHERE data_type = 'activity_summary'),
             max(steps) FILTER (WHERE data_type = 'activity_steps_timeseries')) AS steps
  FROM dataset_partitions
  GROUP BY study_id, participant_id, date
), cells AS (
  SELECT s.study_id, s.participant_id, s.date, s.time_zone, s.state, s.reason,
    CASE s.state WHEN 'complete' THEN 'c' WHEN 'partial' THEN 'p' WHEN 'empty' THEN 'e'
      WHEN 'failed' THEN 'f' WHEN 'scope_missing' THEN 's' WHEN 'revoked' THEN 'r'
      WHEN 'deleted_at_source' THEN 'd' END AS code,
    CASE WHEN s.data_type IN ('heartrate_intraday_1sec', 'heartrate_intraday_1min') THEN s.wear_minutes END AS wear,
    f.steps
  FROM source s JOIN figures f USING (study_id, participant_id, date)
), months AS (
  SELECT study_id, participant_id, date_trunc('month', date)::date AS month,
    (array_agg(time_zone ORDER BY date DESC))[1] AS time_zone,
    jsonb_object_agg(extract(day FROM date)::int, jsonb_build_array(code, wear, steps)) AS cells,
    coalesce(jsonb_object_agg(extract(day FROM date)::int, reason)
      FILTER (WHERE reason IS NOT NULL AND state <> 'complete'), '{}'::jsonb) AS reasons
  FROM cells
  GROUP BY study_id, participant_id, date_trunc('month', date)
)
INSERT INTO "dataset_day_months" ("study_id", "participant_id", "month", "time_zone", "states", "wear_minutes", "steps", "reasons")
SELECT study_id, participant_id, month, time_zone,
  (SELECT string_agg(coalesce(cells -> d::text ->> 0, '-'), '' ORDER BY d) FROM generate_series(1, 31) d),
  ARRAY(SELECT (cells -> d::text ->> 1)::int FROM generate_series(1, 31) d ORDER BY d),
  ARRAY(SELECT (cells -> d::text ->> 2)::int FROM generate_series(1, 31) d ORDER BY d),
  reasons
FROM months
ON CONFLICT DO NOTHING;
