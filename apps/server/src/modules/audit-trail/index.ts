/**
 * The audit trail's readers: the study owner's trail and the master's platform trail (the audit
 * module writes and reads the rows; this module answers HTTP, since it needs sign-in and study
 * access, which themselves record audit events).
 */
export { auditTrailRoutes as routes } from './audit-trail.routes.js';
