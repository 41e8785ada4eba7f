import { ADHERENCE_MAX_DAYS } from '../schemas/adherence.js';

/** The server's answers of the adherence calls (heat map, charts, heart rate). */
export const ADHERENCE_MESSAGES = {
  rangeTooLong: `Choose a range of at most ${ADHERENCE_MAX_DAYS} days, with the first day on or before the last.`,
} as const;
