import { AUDIT_TEXTS, auditApi } from '@research/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { createAuditTrail, recordAudit, recordRead, type TrailScope } from '../audit/index.js';
import { currentUser, requireMaster } from '../auth/index.js';
import { requireStudyMember, studyAccessOf } from '../studies/index.js';

/** preHandler: a member of the study who owns it (others 403, as every owner-only call). */
async function requireStudyOwner(request: FastifyRequest, reply: FastifyReply) {
  await requireStudyMember(request, reply);
  if (studyAccessOf(request).role !== 'main')
    throw new AppError(403, 'OWNER_ONLY', AUDIT_TEXTS.ownerOnly);
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The study owner's trail and the master's. Reading a trail is itself recorded (it shows names,
 * addresses and IPs): a first page as a view, a CSV as a download.
 */
export const auditTrailRoutes: FastifyPluginAsync = async (app) => {
  const db = app.platform.db;
  const trail = createAuditTrail(db);
  const scopeOf = (request: FastifyRequest): TrailScope =>
    request.routeOptions.url?.startsWith('/api/admin/')
      ? { platform: true }
      : { studyId: studyAccessOf(request).study.id };
  const entryOf = (request: FastifyRequest, action: string, query: object) => {
    const scope = scopeOf(request);
    return {
      studyId: 'studyId' in scope ? scope.studyId : undefined,
      action,
      targetType: 'studyId' in scope ? 'study' : 'platform',
      ...('studyId' in scope ? { targetId: scope.studyId } : {}),
      details: { filters: query },
    };
  };

  // A view as every view: the same reader again within 15 minutes is the entry already there
  // (with the filters of its first page). Each CSV is a download, recorded every time.
  const page = async (request: FastifyRequest & { query: Parameters<typeof trail.page>[1] }) => {
    const result = await trail.page(scopeOf(request), request.query);
    if (!request.query.cursor) {
      const { cursor: _, limit: __, ...filters } = request.query;
      await recordRead(db, request, entryOf(request, 'audit.viewed', filters));
    }
    return { success: true as const, ...result };
  };

  const csv = async (
    request: FastifyRequest & { query: Parameters<typeof trail.csv>[1] },
    reply: FastifyReply,
  ) => {
    const scope = scopeOf(request);
    await recordAudit(db, {
      ...entryOf(request, 'audit.downloaded', request.query),
      actorId: currentUser(request).id,
      ip: request.ip,
    });
    const name =
      'studyId' in scope ? `study-${studyAccessOf(request).study.studyCode}` : 'platform';
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header(
        'Content-Disposition',
        `attachment; filename="${AUDIT_TEXTS.csvFileName(name, today())}"`,
      )
      .header('Cache-Control', 'private, no-store')
      .send(trail.csv(scope, request.query));
  };

  const owner = { preHandler: requireStudyOwner };
  const master = { preHandler: requireMaster };
  route(app, auditApi.getStudyAudit, { ...owner, handler: page });
  route(app, auditApi.downloadStudyAudit, { ...owner, config: RATE_LIMITS.auditCsv, handler: csv });
  route(app, auditApi.getPlatformAudit, { ...master, handler: page });
  route(app, auditApi.downloadPlatformAudit, {
    ...master,
    config: RATE_LIMITS.auditCsv,
    handler: csv,
  });
};
