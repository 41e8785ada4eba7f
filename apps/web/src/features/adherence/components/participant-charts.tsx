import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import {
  adherenceDay,
  type HeartRateDayResponse,
  type ParticipantChartsResponse,
  PARTICIPANT_CHARTS_TEXTS as T,
} from '@research/contracts';
import { type ReactNode, useId, useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useHeartRateDay, useParticipantCharts } from '../api/participant-charts';

const HEIGHT = 240;
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const STAGES = ['deep', 'light', 'rem', 'awake', 'asleep'] as const;
const STAGE_COLORS = ['#1a237e', '#5c6bc0', '#00897b', '#ef6c00', '#90a4ae'];

type Day = ParticipantChartsResponse['days'][number];

const average = (values: number[]) =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;

/** The charts of one participant over [from, to]; x-charts is imported here only. */
export default function ParticipantCharts({
  participantId,
  from,
  to,
}: {
  participantId: string;
  from: string;
  to: string;
}) {
  const charts = useParticipantCharts(participantId, from, to);
  if (charts.isError && !charts.data) return <Alert severity="error">{T.loadFailed}</Alert>;
  if (!charts.data) return <LoadingIndicator message={T.loading} />;
  const { days } = charts.data;
  const labels = days.map((day) => adherenceDay(day.date));

  const series = (pick: (day: Day) => number | null) => days.map(pick);
  const steps = series((d) => d.steps);
  const resting = series((d) => d.restingHeartRateBpm);
  const wear = series((d) => (d.wearMinutes === null ? null : d.wearMinutes / 60));
  const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
  const summary = (chart: string, values: (number | null)[], unit = '', format = NUMBER) => {
    const avg = average(known(values));
    return T.summary(
      chart,
      from,
      to,
      known(values).length,
      avg === null ? null : `${format.format(avg)}${unit}`,
    );
  };
  const sleepHours = series((d) => (d.sleepMinutes === null ? null : d.sleepMinutes / 60));
  const band = [{ scaleType: 'band' as const, data: labels }];

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
      <ChartCard
        title={T.steps}
        summary={summary(T.steps, steps, '', WHOLE)}
        empty={known(steps).length === 0}
      >
        <BarChart
          height={HEIGHT}
          xAxis={band}
          series={[{ data: steps, label: T.steps, color: '#54278f' }]}
          hideLegend
          skipAnimation
        />
      </ChartCard>
      <ChartCard
        title={T.restingHeartRate}
        summary={summary(T.restingHeartRate, resting, ` ${T.bpm}`)}
        empty={known(resting).length === 0}
      >
        <LineChart
          height={HEIGHT}
          xAxis={[{ scaleType: 'point', data: labels }]}
          series={[
            { data: resting, label: T.restingHeartRate, color: '#c62828', connectNulls: false },
          ]}
          hideLegend
          skipAnimation
        />
      </ChartCard>
      <ChartCard
        title={T.sleep}
        summary={summary(T.sleep, sleepHours, ` ${T.hours}`)}
        empty={known(sleepHours).length === 0}
      >
        <BarChart
          height={HEIGHT}
          xAxis={band}
          series={STAGES.map((stage, i) => ({
            data: days.map((d) => (d.sleepStages ? d.sleepStages[stage] / 60 : null)),
            label: T.stages[stage],
            stack: 'sleep',
            color: STAGE_COLORS[i],
            valueFormatter: (v: number | null) =>
              v === null ? '' : `${NUMBER.format(v)} ${T.hours}`,
          }))}
          skipAnimation
        />
      </ChartCard>
      <ChartCard
        title={T.wear}
        summary={summary(T.wear, wear, ` ${T.hours}`)}
        empty={known(wear).length === 0}
      >
        <BarChart
          height={HEIGHT}
          xAxis={band}
          yAxis={[{ max: 24 }]}
          series={[
            {
              data: wear,
              label: T.wear,
              color: '#08519c',
              valueFormatter: (v: number | null) =>
                v === null ? '' : `${NUMBER.format(v)} ${T.hours}`,
            },
          ]}
          hideLegend
          skipAnimation
        />
      </ChartCard>
      <Box sx={{ gridColumn: { md: '1 / -1' } }}>
        <HeartRateDay participantId={participantId} days={days} from={from} to={to} />
      </Box>
    </Box>
  );
}

/** A chart with its title and text alternative; without a day of data, a line says so instead. */
function ChartCard({
  title,
  summary,
  empty,
  children,
}: {
  title: string;
  summary: string;
  /** No day in the range has a value: empty axes would only show a meaningless tick. */
  empty: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  const summaryId = useId();
  return (
    <Paper
      variant="outlined"
      component="figure"
      aria-labelledby={titleId}
      aria-describedby={summaryId}
      sx={{ m: 0, p: 2, minWidth: 0 }}
    >
      <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Typography id={summaryId} variant="body2" color="text.secondary" component="figcaption">
        {summary}
      </Typography>
      {empty ? (
        <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
          {T.noData}
        </Typography>
      ) : (
        children
      )}
    </Paper>
  );
}

/** The local wall-clock parts of an instant in a time zone. */
function localParts(format: Intl.DateTimeFormat, at: number) {
  const parts = format.formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: part('hour') % 24, minute: part('minute') };
}

/**
 * Ticks on the participant's whole hours (every `every` hours), found by walking the day in
 * quarter hours: right on a DST day (23 or 25 hours) and in zones a half hour off UTC.
 */
export function localHourTicks(
  times: readonly number[],
  timeZone: string,
  every: number,
): number[] {
  const first = times[0];
  const last = times[times.length - 1];
  if (first === undefined || last === undefined) return [];
  const format = new Intl.DateTimeFormat('en-US', {
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
    timeZone,
  });
  const quarter = 900_000;
  const ticks: number[] = [];
  for (let at = Math.ceil(first / quarter) * quarter; at <= last; at += quarter) {
    const { hour, minute } = localParts(format, at);
    if (minute === 0 && hour % every === 0) ticks.push(at);
  }
  return ticks;
}

function HeartRateDay({
  participantId,
  days,
  from,
  to,
}: {
  participantId: string;
  days: Day[];
  from: string;
  to: string;
}) {
  // The latest day with data, else the range's last day.
  const latest =
    [...days].reverse().find((d) => d.state === 'complete' || d.state === 'partial')?.date ?? to;
  const [chosen, setChosen] = useState<string | null>(null);
  const date = chosen ?? latest;
  const heartRate = useHeartRateDay(participantId, date);
  const titleId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 1 }}>
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {T.heartRateDay}
        </Typography>
        <TextField
          type="date"
          size="small"
          label={T.day}
          value={date}
          onChange={(e) => e.target.value && setChosen(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: from, max: to } }}
        />
      </Box>
      {heartRate.isError ? (
        <Alert severity="error">{T.loadFailed}</Alert>
      ) : !heartRate.data ? (
        <LoadingIndicator message={T.loading} />
      ) : (
        <HeartRateChart answer={heartRate.data} />
      )}
    </Paper>
  );
}

function HeartRateChart({ answer }: { answer: HeartRateDayResponse }) {
  const { times, bpm, timeZone } = answer;
  const clock = new Intl.DateTimeFormat('en-US', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  const note =
    answer.downsampling === 'lttb'
      ? T.downsampled(answer.sampleCount, times.length)
      : T.allSamples(answer.sampleCount);
  return (
    <figure style={{ margin: 0 }}>
      <Typography variant="body2" color="text.secondary" component="figcaption">
        {T.timeZone(timeZone)} · {note}
        {bpm.length > 0 &&
          ` · ${T.heartRateSummary(answer.date, Math.min(...bpm), Math.max(...bpm), bpm.length)}`}
      </Typography>
      {times.length === 0 ? (
        <Typography sx={{ py: 4, textAlign: 'center' }} color="text.secondary">
          {T.noHeartRate}
        </Typography>
      ) : (
        <LineChart
          height={280}
          xAxis={[
            {
              scaleType: 'time',
              data: times,
              tickInterval: localHourTicks(times, timeZone, 3).map((at) => new Date(at)),
              valueFormatter: (value: Date | number) => clock.format(value),
            },
          ]}
          series={[
            {
              data: bpm,
              label: T.bpm,
              color: '#c62828',
              showMark: false,
              valueFormatter: (v: number | null) => (v === null ? '' : `${v} ${T.bpm}`),
            },
          ]}
          hideLegend
          skipAnimation
        />
      )}
    </figure>
  );
}
