export { type AuditEntry, type Reader, recordAudit, recordRead } from './audit.service.js';
export { type AuditTrail, createAuditTrail, type TrailScope } from './audit-trail.js';
