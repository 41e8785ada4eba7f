export type { CollectResult } from './collect.js';
export {
  COLLECTED_TYPES,
  type CollectDaysInput,
  type Collection,
  createCollection,
} from './collection.js';
export { sweepDays } from './days.js';
