/**
 * Every text a person reads — the product's wording, kept verbatim (see docs/product.md), and ours
 * where it gives none — in one home, one file per area, for the web pages, the server's answers and
 * the e-mails alike.
 */

export * from './access-tokens.js';
export * from './adherence.js';
export * from './adherence-answers.js';
export * from './admin.js';
export * from './applications.js';
export * from './audit.js';
export * from './auth.js';
export * from './collection.js';
export * from './consent.js';
export * from './device-sync.js';
export * from './exports.js';
export * from './extraction.js';
export * from './landing.js';
export * from './messages.js';
export * from './messages-account-security.js';
export * from './notification-status.js';
export * from './participant.js';
export * from './reminders.js';
export * from './service.js';
export * from './shell.js';
export * from './studies.js';
export * from './study-answers.js';
export * from './study-detail.js';
export * from './study-dialogs.js';
export * from './transport.js';
export * from './wearables.js';
export * from './webhooks.js';
