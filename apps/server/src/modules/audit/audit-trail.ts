import { Readable } from 'node:stream';
import {
  AUDIT_TEXTS,
  type AuditActor,
  type AuditEvent,
  type AuditKind,
  auditActionLabel,
  auditActorLabel,
} from '@research/contracts';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../errors.js';
import {
  type TrailFilter,
  type TrailRow,
  type TrailScope,
  trailPage,
} from './audit-trail.repository.js';

export type { TrailScope } from './audit-trail.repository.js';

export interface TrailQuery {
  actor?: string | undefined;
  kind?: AuditKind | undefined;
  /** Days (YYYY-MM-DD, UTC), inclusive. */
  from?: string | undefined;
  to?: string | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function filterOf(query: TrailQuery): TrailFilter {
  return {
    actor: query.actor,
    kind: query.kind,
    branches: query.kind
      ? { study: query.kind !== 'sign_in', signIns: query.kind === 'sign_in' }
      : undefined,
    from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
    until: query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS) : undefined,
  };
}

const encodeCursor = (row: TrailRow) => Buffer.from(`${row.at}|${row.id}`).toString('base64url');
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f-]{36})$/;

function decodeCursor(cursor: string): { at: string; id: string } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1] || !match[2]) throw badRequest(AUDIT_TEXTS.cursorInvalid, 'VALIDATION_ERROR');
  return { at: match[1], id: match[2] };
}

/** Events a participant caused (no account acts for them): enrolment, codes, consent, Google. */
const PARTICIPANT_ACTS =
  /^(participant\.|consent\.|wearable\.(connected|reauthorization_refused)$)/;

function actorOf(row: TrailRow): AuditActor {
  if (row.actor_id)
    return { kind: 'user', id: row.actor_id, name: row.actor_name, email: row.actor_email };
  if (row.target_type === 'participant' && row.target_id && PARTICIPANT_ACTS.test(row.action))
    return { kind: 'participant', id: row.target_id, name: null, email: null };
  return { kind: 'system', id: null, name: null, email: null };
}

function toEvent(row: TrailRow): AuditEvent {
  const details =
    typeof row.details === 'string'
      ? (JSON.parse(row.details) as Record<string, unknown>)
      : row.details;
  return {
    id: row.id,
    at: row.at,
    actor: actorOf(row),
    action: row.action,
    kind: row.kind,
    targetType: row.target_type,
    targetId: row.target_id,
    ip: row.ip,
    details: details ?? {},
  };
}

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value: string | null): string {
  const text = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const CSV_BATCH = 1000;

/** Reads a trail: a page for the screen, or every matching row as CSV. */
export function createAuditTrail(db: Db) {
  return {
    async page(
      scope: TrailScope,
      query: TrailQuery & { cursor?: string | undefined; limit: number },
    ) {
      const filter = {
        ...filterOf(query),
        after: query.cursor ? decodeCursor(query.cursor) : undefined,
      };
      const rows = await trailPage(db, scope, filter, query.limit + 1);
      const shown = rows.slice(0, query.limit);
      const last = shown.at(-1);
      return {
        events: shown.map(toEvent),
        nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
      };
    },

    /** Every matching row, newest first, read a batch at a time as the CSV is sent. */
    csv(scope: TrailScope, query: TrailQuery): Readable {
      const base = filterOf(query);
      async function* lines() {
        yield `${AUDIT_TEXTS.csvHeader.join(',')}\n`;
        let after: TrailFilter['after'];
        for (;;) {
          const rows = await trailPage(db, scope, { ...base, after }, CSV_BATCH);
          let out = '';
          for (const row of rows) {
            const event = toEvent(row);
            out += `${[
              event.at,
              event.actor.kind === 'user' ? (event.actor.name ?? '') : auditActorLabel(event.actor),
              event.actor.email,
              auditActionLabel(event.action),
              event.action,
              event.kind,
              event.targetType,
              event.targetId,
              event.ip,
              JSON.stringify(event.details),
            ]
              .map(cell)
              .join(',')}\n`;
          }
          if (out) yield out;
          const last = rows.at(-1);
          if (rows.length < CSV_BATCH || !last) return;
          after = { at: last.at, id: last.id };
        }
      }
      return Readable.from(lines());
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
