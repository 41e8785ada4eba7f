/**
 * Texts of data extraction: the server's answers and
 * job errors, the notes on each data type, and the panel's copy. The product's own wording
 * lives in messages.ts (EXTRACTION_MESSAGES).
 */

import { type DataType, EXTRACTION_MAX_RANGE_DAYS } from '../constants.js';

export const EXTRACTION_SERVER_MESSAGES = {
  endBeforeStart: 'The end date must not be before the start date',
  rangeTooLong: `The date range must not be longer than ${EXTRACTION_MAX_RANGE_DAYS} days`,
  nameRequired: 'The extraction name is required',
  participantNotSelectable: 'Only participants with a wearable authorization can be selected',
  participantsOfOneStudy: 'All participants must belong to the same study',
  needsReauthorization:
    'The participant’s Google connection needs to be renewed: they have been e-mailed a link to reconnect.',
  notConnected: 'The participant has not connected a wearable account.',
  runNotFound: 'Extraction not found',
} as const;

/**
 * One line per type where the Google Health API gives an approximation of, or less than, the old
 * Fitbit type of the same name. Types without a note are equivalent.
 */
export const DATA_TYPE_EQUIVALENT_NOTE = 'Equivalent to the Fitbit type.';
export const DATA_TYPE_NOTES: Partial<Record<DataType, string>> = {
  profile:
    'Age, membership start, stride lengths, time zone and units only: no name, sex or date of birth.',
  activity_summary:
    'Assembled from daily roll-ups; excludes not-worn time, so totals can differ slightly from Fitbit.',
  activity_calories_timeseries:
    'Total calories (BMR + activity) per day; fetched in 14-day chunks.',
  activity_distance_timeseries: 'Distance in millimetres rather than km or miles.',
  activity_steps_intraday:
    'Only minutes with steps are returned; zero minutes are absent. Wearables only (no phone, no manual entry), each row naming its device in `source`.',
  activity_calories_intraday:
    'Per-minute total calories over the participant’s local day (midnight to midnight in their time zone, offsets filled from it); Fitbit’s activity level and METs are not available.',
  heartrate_summary:
    'Google’s zones (light, moderate, vigorous, peak) replace Fitbit’s; custom zones are not available.',
  heartrate_timeseries: 'Resting heart rate per day plus daily average, minimum and maximum.',
  heartrate_intraday_1min:
    'Average, minimum and maximum per minute of the participant’s local day (offsets from their time zone) instead of one value; empty minutes are absent.',
  heartrate_intraday_1sec:
    'Wearables only (no phone, no manual entry), each sample naming its device in `source`.',
  sleep_log:
    'Stages as start/end segments; no efficiency or 30-second level data; sleep may be revised later.',
};

/** On-screen texts of the Data Extraction panel. */
export const EXTRACTION_PANEL_TEXTS = {
  title: 'Data Extraction',
  intro:
    'Extraction runs on the server: you can close this page, and progress is kept if the server restarts.',
  dateMode: 'Date mode',
  singleDate: 'Single Date',
  dateRange: 'Date Range',
  date: 'Date',
  startDate: 'Start date',
  endDate: 'End date',
  participants: 'Participants',
  participantsHelp:
    'Search by name, e-mail or participant id. Only participants with a wearable authorization can be selected.',
  /** Selects every participant whose wearable is connected. */
  selectAll: (count: number) => `Select all connected (${count})`,
  /** A participant as the picker names them: name and e-mail, the id when both are missing. */
  participantLabel: (name: string, email: string, id: string) =>
    name && email ? `${name} (${email})` : name || email || id,
  clear: 'Clear',
  dataTypes: 'Data types',
  cannotGive: (types: string) => `Cannot give: ${types}`,
  notAuthorized: 'not authorized',
  summaryTitle: 'Extraction Summary',
  summaryParticipants: 'Participants',
  summaryDataTypes: 'Data types',
  summaryDates: 'Dates',
  summaryCalls: 'Estimated API calls',
  summaryTime: 'Estimated time',
  /** A run's expected time from its range in seconds: '2–6 seconds', 'about 1 minute', '2–5 minutes'. */
  estimatedTime: (minSeconds: number, maxSeconds: number) => {
    const span = (low: number, high: number, unit: string) =>
      low >= high ? `about ${high} ${unit}${high === 1 ? '' : 's'}` : `${low}–${high} ${unit}s`;
    const high = Math.max(1, Math.ceil(maxSeconds));
    if (high < 60) return span(Math.max(1, Math.floor(minSeconds)), high, 'second');
    const highMinutes = Math.ceil(maxSeconds / 60);
    if (highMinutes < 120) {
      return span(Math.max(1, Math.floor(minSeconds / 60)), highMinutes, 'minute');
    }
    return span(Math.max(1, Math.floor(minSeconds / 3600)), Math.ceil(maxSeconds / 3600), 'hour');
  },
  estimating: 'Estimating...',
  startExtraction: 'Start Extraction',
  starting: 'Starting...',
  preview: 'Preview extraction',
  nameDialogTitle: 'Name Your Extraction',
  nameLabel: 'Extraction name',
  nameRequired: EXTRACTION_SERVER_MESSAGES.nameRequired,
  cancel: 'Cancel',
  previewTitle: 'Extraction Preview',
  close: 'Close',
  jobsTitle: 'Extraction Jobs',
  noJobs: 'No extractions yet.',
  detail: 'Detail',
  /** A completed job that skipped data types the participant did not share. */
  completedWithGaps: 'completed with gaps',
  gapsNote: (types: string) => `Not collected because the participant did not share it: ${types}.`,
  /** The accessible name of a job's progress bar. */
  jobProgress: (name: string) => `${name} progress`,
  callsProgress: (done: number, planned: number) => `${done} / ${planned} calls`,
  detailsTitle: 'Extraction Details',
  /** The accessible name of the job's task table (it scrolls sideways on a phone). */
  detailTasks: 'Tasks of this extraction',
  detailType: 'Data type',
  detailDates: 'Dates',
  detailStatus: 'Status',
  detailCalls: 'Calls',
  detailRows: 'Rows',
  detailFiles: 'Files',
  detailNote: 'Note',
  runFiles: 'Files of the run',
  runFilesPending:
    'The CSV files, data dictionary and manifest are written when every job has finished.',
  startFailedTitle: 'Extraction Failed',
  loading: 'Loading...',
} as const;
