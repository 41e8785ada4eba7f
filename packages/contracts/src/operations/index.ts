/** Every API call as one typed operation, by area: `studiesApi.getStudy`, … */

export * as accessTokensApi from './access-tokens.js';
export * as adherenceApi from './adherence.js';
export * as applicationsApi from './applications.js';
export * as auditApi from './audit.js';
export * as authApi from './auth.js';
export * as consentApi from './consent.js';
export * as emailApi from './email.js';
export * as enrolmentApi from './enrolment.js';
export * from './error-codes.js';
export * as exportsApi from './exports.js';
export * as extractionApi from './extraction.js';
export * as healthApi from './health.js';
export * as healthNotificationsApi from './health-notifications.js';
export * from './operation.js';
export * as participantsApi from './participants.js';
export { ALL_OPERATIONS, operationNamed, operationNameOf } from './registry.js';
export * from './roles.js';
export * as storageApi from './storage.js';
export * as studiesApi from './studies.js';
export * from './url.js';
export * as verificationApi from './verification.js';
export * as wearablesApi from './wearables.js';
export * as webhooksApi from './webhooks.js';
