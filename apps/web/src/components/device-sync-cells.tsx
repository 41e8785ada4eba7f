import Typography from '@mui/material/Typography';
import {
  type CollectedDay,
  DEVICE_SYNC_TEXTS,
  dayFigures,
  dayLabel,
  syncedAgo,
  syncedAt,
} from '@research/contracts';
import { useEffect, useState } from 'react';

/** How often "5 minutes ago" is said again while the screen stays open. */
const TICK_MS = 30_000;

function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "12 minutes ago", the exact time in its title; "Never" while the device's sync is unknown. */
export function LastSynced({ at }: { at: string | null }) {
  const now = useNow(TICK_MS);
  if (!at) {
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        {DEVICE_SYNC_TEXTS.never}
      </Typography>
    );
  }
  return (
    <time dateTime={at} title={syncedAt(at)}>
      {syncedAgo(at, now)}
    </time>
  );
}

/** "Nov 25: 8,432 steps · 14.2 h worn · RHR 61 · 7 h 10 min sleep", or "No data yet". */
export function LatestDay({ day }: { day: CollectedDay | null }) {
  if (!day) {
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        {DEVICE_SYNC_TEXTS.noData}
      </Typography>
    );
  }
  // daySummaryLine's text, but a line breaks only between figures ("11.8 h worn" stays whole and
  // no line starts with "·").
  const figures = dayFigures(day).map(unbroken);
  const label = unbroken(dayLabel(day));
  return <span>{figures.length > 0 ? `${label}: ${figures.join('\u00a0· ')}` : label}</span>;
}

const unbroken = (text: string) => text.replaceAll(' ', '\u00a0');
