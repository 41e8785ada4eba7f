export { type AuditEntry, recordAudit } from './audit.service.js';
