import { DIGEST_MAIL_TEXTS, daysWithoutSync, isAtRisk } from '@research/contracts';
import { renderEmail } from '../../platform/mail-templates.js';
import { type FailedFetch, failedFetchesBetween } from '../dataset/index.js';
import { recordPlatformMailing } from '../email/index.js';
import { liveContactsOf } from '../participants/index.js';
import { listStudyTeam, liveStudies } from '../studies/index.js';
import { liveConnectionsOfStudy } from '../wearables/index.js';
import * as repo from './reminders.repository.js';
import { DAY_MS, fullName, type RemindersContext, utcDay } from './reminders-context.js';

/** Lines per section of the digest; the rest is counted. */
const SECTION_LINES = 50;

/** The study's Adherence tab (the sixth tab of the study page, `?tab=5`). */
export const adherenceTabUrl = (publicUrl: string, studyId: string) =>
  new URL(`/researcher/study/${studyId}?tab=5`, publicUrl).toString();

/** A section: its heading, then one line per item (a line break inside a paragraph is kept). */
function section(heading: string, lines: string[], total: number) {
  const shown = lines.slice(0, SECTION_LINES);
  if (total > shown.length) shown.push(DIGEST_MAIL_TEXTS.more(total - shown.length));
  return [heading, ...shown].join('\n');
}

interface DigestContent {
  atRisk: { participantId: string; name: string | null; days: number }[];
  reauthorization: { participantId: string; name: string | null }[];
  failed: { rows: FailedFetch[]; totalCount: number };
}

function digestParagraphs(studyName: string, content: DigestContent) {
  const t = DIGEST_MAIL_TEXTS;
  const paragraphs = [t.intro(studyName)];
  if (content.atRisk.length > 0)
    paragraphs.push(
      section(
        t.atRiskHeading(content.atRisk.length),
        content.atRisk.map((p) => t.atRiskLine(p.participantId, p.name, p.days)),
        content.atRisk.length,
      ),
    );
  if (content.reauthorization.length > 0)
    paragraphs.push(
      section(
        t.reauthorizationHeading(content.reauthorization.length),
        content.reauthorization.map((p) => t.reauthorizationLine(p.participantId, p.name)),
        content.reauthorization.length,
      ),
    );
  if (content.failed.totalCount > 0)
    paragraphs.push(
      section(
        t.failedHeading(content.failed.totalCount),
        content.failed.rows.map((f) => t.failedLine(f.participantId, f.dataType, f.date, f.reason)),
        content.failed.totalCount,
      ),
    );
  return paragraphs;
}

/**
 * The daily digest of every live study: one mail per recipient and study and UTC day, to the
 * owner (unless they turned it off) and the collaborators who turned it on, listing what is new
 * since the previous digest. Nothing to report: no mail (the day still counts as digested).
 */
export function createDigest(ctx: RemindersContext) {
  const { db, config, messaging } = ctx;

  async function digestStudy(
    study: { id: string; name: string; settings: { riskNoSyncDays: number } },
    now: Date,
  ): Promise<number> {
    const day = utcDay(now);
    return db.transaction(async (tx) => {
      await repo.lockStudy(tx, 'digest', study.id);
      const claim = await repo.claimDigestDay(tx, study.id, day, now);
      if (!claim) return 0;
      const since = claim.previousAt ?? new Date(now.getTime() - DAY_MS);

      const connections = await liveConnectionsOfStudy(tx, study.id);
      const contacts = await liveContactsOf(
        tx,
        study.id,
        connections.map((c) => c.participantId),
      );
      const live = connections.filter((c) => contacts.has(c.participantId));
      const atRisk = live.filter(
        (c) =>
          c.status === 'active' &&
          isAtRisk({
            lastDeviceSyncAt: c.lastDeviceSyncAt,
            connectedAt: c.connectedAt,
            now,
            riskNoSyncDays: study.settings.riskNoSyncDays,
          }),
      );
      const reauthorization = live.filter((c) => c.status === 'needs_reauthorization');
      const reported = await repo.reportedOfStudy(tx, study.id);
      await repo.saveReported(tx, study.id, now, {
        atRisk: atRisk.map((c) => c.participantId),
        reauthorization: reauthorization.map((c) => c.participantId),
      });

      const nameOf = (id: string) => {
        const contact = contacts.get(id);
        return contact ? fullName(contact) : null;
      };
      const content: DigestContent = {
        atRisk: atRisk
          .filter((c) => !reported.atRisk.has(c.participantId))
          .map((c) => ({
            participantId: c.participantId,
            name: nameOf(c.participantId),
            days: daysWithoutSync(c.lastDeviceSyncAt ?? c.connectedAt, now) ?? 0,
          })),
        reauthorization: reauthorization
          .filter((c) => !reported.reauthorization.has(c.participantId))
          .map((c) => ({ participantId: c.participantId, name: nameOf(c.participantId) })),
        failed: await failedFetchesBetween(tx, study.id, since, now, SECTION_LINES),
      };
      if (
        content.atRisk.length === 0 &&
        content.reauthorization.length === 0 &&
        content.failed.totalCount === 0
      )
        return 0;

      const preferences = await repo.digestPreferencesOfStudy(tx, study.id);
      const recipients = (await listStudyTeam(tx, study.id))
        .filter((m) => preferences.get(m.userId) ?? m.role === 'main')
        .map((m) => m.email);
      if (recipients.length === 0) return 0;

      const subject = DIGEST_MAIL_TEXTS.subject(study.name);
      const paragraphs = digestParagraphs(study.name, content);
      const action = {
        label: DIGEST_MAIL_TEXTS.action,
        url: adherenceTabUrl(config.publicUrl, study.id),
      };
      const mail = renderEmail({
        title: DIGEST_MAIL_TEXTS.title,
        preheader: DIGEST_MAIL_TEXTS.intro(study.name),
        paragraphs,
        action,
        footer: DIGEST_MAIL_TEXTS.footer,
      });
      const outboundIds = await messaging.queueMessages(
        'adherence-digest',
        recipients.map((to) => ({ channel: 'email' as const, to, subject, ...mail })),
        tx,
      );
      await recordPlatformMailing(tx, {
        studyId: study.id,
        kind: 'adherence_digest',
        subject,
        body: [...paragraphs, `${action.label}: ${action.url}`].join('\n\n'),
        recipients: recipients.map((address, i) => ({
          address,
          outboundMessageId: outboundIds[i] as string,
        })),
      });
      await repo.recordDigestRecipients(tx, study.id, day, recipients.length);
      return recipients.length;
    });
  }

  /** One digest run over every live study; answers the number of mails queued. */
  return async function runDigest(now = ctx.now()): Promise<number> {
    let sent = 0;
    for (const study of await liveStudies(db)) sent += await digestStudy(study, now);
    if (sent > 0) messaging.deliverQueued();
    return sent;
  };
}
