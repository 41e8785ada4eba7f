/** Public surface of @research/contracts: constants, texts, validators and zod schemas. */

export * from './adherence-rules.js';
export * from './client-settings.js';
export * from './constants.js';
export * from './document-size.js';
export * from './operations/index.js';
export * from './phone.js';
export * from './schemas/index.js';
export * from './texts/index.js';
export * from './validators.js';
