import Search from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  ADHERENCE_MAX_DAYS,
  ADHERENCE_TEXTS,
  type AdherenceMetric,
  type Study,
} from '@research/contracts';
import { startTransition, useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import { HeldBackNote } from '../../../components/consent/held-back-note';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useDigestPreference, useSetDigestPreference } from '../api/digest-preference';
import { useAdherence } from '../api/get-adherence';
import {
  type DayRange,
  dayCount,
  type ParticipantFilter,
  type ParticipantSort,
  presetRange,
  type RangePreset,
  rangeProblem,
  todayUtc,
  visibleRows,
} from '../model';
import { HeatMap } from './heat-map';
import { Legend } from './legend';
import { ParticipantTable } from './participant-table';

export interface AdherenceTabProps {
  study: Study;
  signedIn: boolean;
}

const T = ADHERENCE_TEXTS;

/**
 * The study screen's Adherence tab: the summary line, the range and metric, the heat map of
 * participants × days with its legend, and the table of each participant's sync, battery, valid
 * days and risk; the member's daily digest switch.
 */
export default function AdherenceTab({ study, signedIn }: AdherenceTabProps) {
  const today = todayUtc();
  const [preset, setPreset] = useState<RangePreset>('28');
  const [custom, setCustom] = useState<DayRange>(() => presetRange('28', study.createdAt, today));
  const [metric, setMetric] = useState<AdherenceMetric>('wear');
  const [filter, setFilter] = useState<ParticipantFilter>('all');
  const [sort, setSort] = useState<ParticipantSort>('adherenceLow');
  const [search, setSearch] = useState('');

  const problem = preset === 'custom' ? rangeProblem(custom) : null;
  // While the custom dates are being typed and do not hold, the map stays on the last range.
  const lastGood = useRef(custom);
  const range =
    preset !== 'custom'
      ? presetRange(preset, study.createdAt, today)
      : problem
        ? lastGood.current
        : custom;
  lastGood.current = range;

  const adherence = useAdherence(study.id, range.from, range.to, signedIn);
  const data = adherence.data;
  const rows = useMemo(
    () => (data ? visibleRows(data.participants, filter, search, sort) : []),
    [data, filter, search, sort],
  );
  // The table follows the map in a second, interruptible render: a change of filter, sort or
  // range paints the map first and never blocks the page for both at once.
  const tableRows = useDeferredValue(rows);

  const choosePreset = (next: RangePreset | null) => {
    if (!next) return;
    // Custom starts from the range shown.
    if (next === 'custom') setCustom(range);
    setPreset(next);
  };

  return (
    <Box sx={{ p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 2,
          justifyContent: 'space-between',
          alignItems: 'flex-start',
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2">
            {data ? T.summary(data.summary) : T.loading}
          </Typography>
          {data && (
            <Typography variant="body2" color="text.secondary">
              {T.rule(data.rule.validDayMinHours, data.rule.riskNoSyncDays)}
            </Typography>
          )}
          <HeldBackNote studyId={study.id} />
        </Box>
        <DigestSwitch studyId={study.id} signedIn={signedIn} />
      </Box>

      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap flexWrap="wrap">
        <Box>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={preset}
            onChange={(_, next) => choosePreset(next)}
            aria-label={T.range.label}
            sx={{ flexWrap: 'wrap' }}
          >
            <ToggleButton value="28">{T.range.last28}</ToggleButton>
            <ToggleButton value="90">{T.range.last90}</ToggleButton>
            <ToggleButton value="whole">{T.range.whole}</ToggleButton>
            <ToggleButton value="custom">{T.range.custom}</ToggleButton>
          </ToggleButtonGroup>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {T.range.shown(range.from, range.to, dayCount(range.from, range.to))}
          </Typography>
        </Box>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={metric}
          // A new metric redraws every cell in view: in a transition, sliced, so input stays live.
          onChange={(_, next: AdherenceMetric | null) =>
            next && startTransition(() => setMetric(next))
          }
          aria-label={T.metric.label}
          sx={{ alignSelf: 'flex-start', flexWrap: 'wrap' }}
        >
          <ToggleButton value="wear">{T.metric.wear}</ToggleButton>
          <ToggleButton value="steps">{T.metric.steps}</ToggleButton>
          <ToggleButton value="sync">{T.metric.sync}</ToggleButton>
        </ToggleButtonGroup>
      </Stack>

      {preset === 'custom' && (
        <CustomRange value={custom} today={today} problem={problem} onChange={setCustom} />
      )}

      {adherence.isError && !data ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => adherence.refetch()}>
              {T.retry}
            </Button>
          }
        >
          {T.loadFailed}
        </Alert>
      ) : !data ? (
        <LoadingIndicator message={T.loading} />
      ) : data.participants.length === 0 ? (
        <Box sx={{ textAlign: 'center', py: 5 }}>
          <Typography variant="h6" component="p" gutterBottom>
            {T.noParticipants}
          </Typography>
          <Typography color="text.secondary">{T.noParticipantsBody}</Typography>
        </Box>
      ) : (
        <>
          <Controls
            search={search}
            filter={filter}
            sort={sort}
            onSearch={setSearch}
            onFilter={setFilter}
            onSort={setSort}
            shown={rows.length}
            total={data.participants.length}
          />
          <Legend metric={metric} validDayMinHours={data.rule.validDayMinHours} />
          {rows.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
              {T.noMatches}
            </Typography>
          ) : (
            <>
              <HeatMap
                studyId={study.id}
                days={data.days}
                rows={rows}
                metric={metric}
                validDayMinHours={data.rule.validDayMinHours}
              />
              <ParticipantTable studyId={study.id} rows={tableRows} />
            </>
          )}
        </>
      )}
    </Box>
  );
}

function CustomRange({
  value,
  today,
  problem,
  onChange,
}: {
  value: DayRange;
  today: string;
  problem: ReturnType<typeof rangeProblem>;
  onChange: (range: DayRange) => void;
}) {
  const errorId = useId();
  const error =
    problem === 'reversed'
      ? T.range.reversed
      : problem
        ? T.range.tooLong(ADHERENCE_MAX_DAYS)
        : null;
  return (
    <Box>
      <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
        <TextField
          type="date"
          size="small"
          label={T.range.from}
          value={value.from}
          onChange={(e) => onChange({ ...value, from: e.target.value })}
          error={Boolean(error)}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { max: today, 'aria-describedby': error ? errorId : undefined },
          }}
        />
        <TextField
          type="date"
          size="small"
          label={T.range.to}
          value={value.to}
          onChange={(e) => onChange({ ...value, to: e.target.value })}
          error={Boolean(error)}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { max: today, 'aria-describedby': error ? errorId : undefined },
          }}
        />
      </Stack>
      {error && (
        <FormHelperText id={errorId} error>
          {error}
        </FormHelperText>
      )}
    </Box>
  );
}

function Controls({
  search,
  filter,
  sort,
  onSearch,
  onFilter,
  onSort,
  shown,
  total,
}: {
  search: string;
  filter: ParticipantFilter;
  sort: ParticipantSort;
  onSearch: (value: string) => void;
  onFilter: (value: ParticipantFilter) => void;
  onSort: (value: ParticipantSort) => void;
  shown: number;
  total: number;
}) {
  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap flexWrap="wrap">
        <TextField
          size="small"
          type="search"
          label={T.controls.search}
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" aria-hidden />
                </InputAdornment>
              ),
            },
          }}
          sx={{ minWidth: { sm: 240 } }}
        />
        <TextField
          select
          size="small"
          label={T.controls.filter}
          value={filter}
          onChange={(e) => onFilter(e.target.value as ParticipantFilter)}
          sx={{ minWidth: 200 }}
        >
          {(Object.keys(T.filter) as ParticipantFilter[]).map((key) => (
            <MenuItem key={key} value={key}>
              {T.filter[key]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={T.controls.sort}
          value={sort}
          onChange={(e) => onSort(e.target.value as ParticipantSort)}
          sx={{ minWidth: 220 }}
        >
          {(Object.keys(T.sort) as ParticipantSort[]).map((key) => (
            <MenuItem key={key} value={key}>
              {T.sort[key]}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} role="status">
        {T.heatmap.rowsShown(shown, total)}
      </Typography>
    </Box>
  );
}

/** The member's own daily digest choice. */
function DigestSwitch({ studyId, signedIn }: { studyId: string; signedIn: boolean }) {
  const helpId = useId();
  const digest = useDigestPreference(studyId, signedIn);
  const save = useSetDigestPreference(studyId);
  return (
    <Box sx={{ maxWidth: 360 }}>
      <FormControlLabel
        control={
          <Switch
            checked={digest.data ?? false}
            disabled={!digest.isSuccess || save.isPending}
            onChange={(e) => save.mutate(e.target.checked)}
            slotProps={{ input: { 'aria-describedby': helpId } }}
          />
        }
        label={T.digest.label}
      />
      <FormHelperText id={helpId} sx={{ mt: 0 }} error={save.isError}>
        {save.isError ? T.digest.failed : T.digest.help}
      </FormHelperText>
    </Box>
  );
}
