/** Texts of analysis-ready exports: the server's answers and the Data export tab. */

export const EXPORT_SERVER_MESSAGES = {
  selectParticipant: 'Select at least one participant',
  selectDataType: 'Select at least one data type',
  selectFormat: 'Select at least one format',
  exportNotFound: 'Export not found',
  notReady: 'The export is not finished yet',
  failed: 'The export failed',
} as const;
