/**
 * The participants module's queries, one file per part (enrolled participants, the roster, the
 * team), gathered here so the service and the module's entry read them from one place.
 */
export * from './participants-enrolled.repository.js';
export * from './participants-members.repository.js';
export type { Page } from './participants-paging.js';
export * from './participants-roster.repository.js';
