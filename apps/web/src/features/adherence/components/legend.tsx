import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  ADHERENCE_STATE_LABELS,
  ADHERENCE_TEXTS,
  type AdherenceMetric,
  STEP_BUCKET_LABELS,
  wearBucketLabels,
} from '@research/contracts';
import { useId } from 'react';
import { cellStyles } from './cell-styles';

/** The states every metric shows with their own fill and sign. */
const STATE_KEYS = [
  ['hm-empty', ADHERENCE_STATE_LABELS.empty],
  ['hm-failed', ADHERENCE_STATE_LABELS.failed],
  ['hm-scope_missing', ADHERENCE_STATE_LABELS.scope_missing],
  ['hm-revoked', ADHERENCE_STATE_LABELS.revoked],
  ['hm-deleted_at_source', ADHERENCE_STATE_LABELS.deleted_at_source],
  ['hm-not_collected', ADHERENCE_STATE_LABELS.not_collected],
  ['hm-not_enrolled', ADHERENCE_STATE_LABELS.not_enrolled],
] as const;

/** What each cell's look means, for the metric shown. */
export function Legend({
  metric,
  validDayMinHours,
}: {
  metric: AdherenceMetric;
  validDayMinHours: number;
}) {
  const titleId = useId();
  const scale: (readonly [string, string])[] =
    metric === 'wear'
      ? wearBucketLabels(validDayMinHours).map((label, i) => [`hm-w${i}`, label] as const)
      : metric === 'steps'
        ? STEP_BUCKET_LABELS.map((label, i) => [`hm-s${i}`, label] as const)
        : [['hm-complete', ADHERENCE_STATE_LABELS.complete]];
  const entries: (readonly [string, string])[] = [
    ...scale,
    [`${scale[scale.length - 1]?.[0] ?? 'hm-complete'} hm-partial`, ADHERENCE_STATE_LABELS.partial],
    ...STATE_KEYS,
  ];
  return (
    <Box sx={cellStyles}>
      <Typography id={titleId} variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {ADHERENCE_TEXTS.legend.title}
      </Typography>
      <Box
        component="ul"
        aria-labelledby={titleId}
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'flex',
          flexWrap: 'wrap',
          columnGap: 2,
          rowGap: 0.75,
        }}
      >
        {entries.map(([className, label]) => (
          <Box
            component="li"
            key={label}
            sx={{ display: 'flex', alignItems: 'center', gap: 0.75, fontSize: 13 }}
          >
            <span className={`hm-c ${className}`} aria-hidden />
            {label}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
