/**
 * Electronic consent: the study's consent form in versions, participants' signatures (with the
 * signed-record PDF), withdrawals, and the gate every fetching job asks.
 */

export { consentRoutes as routes } from './consent.routes.js';
export { type ConsentDeps, type ConsentService, createConsentService } from './consent.service.js';
export {
  type ConsentHold,
  consentHoldOf,
  consentHoldReason,
  type GateSubject,
  heldBackAmong,
} from './consent-gate.js';
