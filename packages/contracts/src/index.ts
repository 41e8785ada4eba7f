/** Public surface of @research/contracts: constants, texts, validators and zod schemas. */
export * from './constants.js';
export * from './messages.js';
export * from './schemas/index.js';
export * from './validators.js';
