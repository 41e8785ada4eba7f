/** Texts of analysis-ready exports: the server's answers and the Data export tab. */

export const EXPORT_SERVER_MESSAGES = {
  selectParticipant: 'Select at least one participant',
  selectDataType: 'Select at least one data type',
  selectFormat: 'Select at least one format',
  exportNotFound: 'Export not found',
  notReady: 'The export is not finished yet',
  failed: 'The export failed',
} as const;

/** On-screen texts of the Data export tab: the form, the list of exports and the scripts. */
export const EXPORT_PANEL_TEXTS = {
  title: 'Data export',
  intro:
    'Analysis-ready files of the study dataset: choose participants, data types and days, then download one ZIP with the data, a data dictionary and a manifest. Exports run on the server: you can close this page.',
  formTitle: 'New export',
  participantsHelp:
    'Search by name, e-mail or participant id. A participant without a connected wearable exports the data already collected.',
  /** Selects every participant of the study. */
  selectAllParticipants: (count: number) => `Select all (${count})`,
  dataTypesHelp:
    'Open the list to see, under each type, how it differs from the Fitbit type of the same name.',
  allDataTypes: 'All types',
  clearDataTypes: 'Clear types',
  rangeLegend: 'Days',
  rangeHelp: 'The participants’ own local days, both included.',
  startDate: 'Start date',
  endDate: 'End date',
  formatsLegend: 'Formats',
  formatLabels: { parquet: 'Parquet', csv: 'CSV' },
  optionsLegend: 'Options',
  minuteGrid: 'Minute grid, zeros filled, with a worn flag',
  minuteGridHelp:
    'Intraday tables get a row for every minute of the local day, 0 where nothing was recorded, and a column saying whether the device was worn.',
  includeRaw: 'Include raw JSON from Google',
  includeRawHelp: 'The pages as Google sent them, beside the tidy files.',
  name: 'Name (optional)',
  nameHelp: 'Shown in the list; left empty, the export is named after its days.',
  start: 'Start export',
  starting: 'Starting...',
  selectDates: 'Select a start date and an end date',
  tooManyParticipants: (max: number) => `Select at most ${max} participants`,
  startFailed: 'The export could not be started',
  started: (name: string) => `Export started: ${name}`,

  listTitle: 'Exports',
  noExports: 'No exports yet.',
  loadFailed: 'The exports could not be loaded.',
  /** Who started it and when: 'Ada Lovelace · Nov 20, 2026, 10:00 AM'. */
  startedBy: (who: string, when: string) => `${who} · ${when}`,
  participantCount: (count: number) => `${count} participant${count === 1 ? '' : 's'}`,
  dayRange: (startDate: string, endDate: string) =>
    startDate === endDate ? startDate : `${startDate} – ${endDate}`,
  summaryMinuteGrid: 'minute grid',
  summaryRaw: 'raw JSON',
  statuses: { queued: 'queued', running: 'running', completed: 'completed', failed: 'failed' },
  /** The accessible name of an export's progress bar. */
  progressLabel: (name: string) => `${name} progress`,
  partitions: (done: number, total: number, percent: number) =>
    `${done} / ${total} partitions (${Math.round(percent)} %)`,
  missingPartitions: (count: number) =>
    `${count} partition${count === 1 ? '' : 's'} (participant × type × day) had no data to export: the fetch failed, access was revoked, a scope was missing or the data was removed.`,
  download: 'Download ZIP',
  /** Beside the download button: the files' total size; the ZIP itself is smaller. */
  unzippedSize: (size: string) => `${size} unzipped`,
  /** The download button's accessible name: which export it downloads. */
  downloadOf: (name: string) => `Download ZIP of ${name}`,
  downloading: 'Downloading...',
  downloadFailed: 'The download failed',
  showFiles: 'Show files',
  hideFiles: 'Hide files',
  filesOf: (name: string) => `Files of ${name}`,
  loadingFiles: 'Loading files...',
  filePath: 'Path',
  fileSize: 'Size',
  fileRows: 'Rows',
  fileSha: 'SHA-256',
  noRows: '—',

  scriptTitle: 'Use from a script',
  scriptIntro:
    'These scripts list the study’s exports, start an export of the selection above, wait for it to finish and download the ZIP.',
  scriptToken:
    'They read an access token from the WRP_TOKEN environment variable: create one under Access tokens below.',
  scriptIncomplete:
    'Complete the selection above to fill the participants, data types and days into the scripts.',
  languages: { r: 'R (httr2)', python: 'Python (requests)' },
  languagesLabel: 'Script language',
  /** The accessible name of a script's code block. */
  scriptOf: (language: string) => `${language} script`,
  copy: 'Copy script',
  copied: 'Script copied to the clipboard',
  copyFailed: 'The script could not be copied: select it and copy it by hand.',

  extractionRuns: 'Extraction runs',
} as const;

/** The comments inside the R and Python scripts of the Data export tab. */
export const EXPORT_SCRIPT_COMMENTS = {
  token: 'An access token of this platform (see Access tokens), kept out of the script',
  list: 'The study’s exports, newest first',
  start: 'Start an export of the selection',
  poll: 'Wait until it is completed',
  download: 'Download the ZIP',
} as const;
