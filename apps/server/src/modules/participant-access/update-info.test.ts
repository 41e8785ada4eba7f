import {
  DOCUMENT_MAX_FILES,
  PARTICIPANT_DOCUMENT_LIMITS,
  PARTICIPANT_DOCUMENT_MESSAGES,
} from '@research/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { participantDocuments, participants } from '../../db/schema/index.js';
import { CFB_SAMPLES } from '../../test/cfb.js';
import {
  adult,
  approvedResearcher,
  createStudy,
  participantEmail,
  post,
} from '../../test/enrolment-fixtures.js';
import { injectMultipart, SAMPLE_FILES } from '../../test/multipart.js';
import { useTestApp } from '../../test/test-app.js';
import { studyBucket } from '../studies/index.js';

const SESSION = 'x-participant-session';
/** A GIF's first bytes: enough for content sniffing. */
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]);

describe('profile and documents (update-info)', () => {
  const t = useTestApp();
  let study: Awaited<ReturnType<typeof createStudy>>;

  beforeAll(async () => {
    const owner = await approvedResearcher(t.app);
    study = await createStudy(t.app, owner, {
      allowSelfEnrollment: true,
      requireVerification: false,
    });
  });

  async function enrolled() {
    const email = participantEmail('profile');
    const res = await post(t.app, '/api/participants/enroll-direct', {
      email,
      firstName: 'Grace',
      lastName: 'Hopper',
      dateOfBirth: adult,
      studyCode: study.studyCode,
    });
    const body = res.json();
    return {
      email,
      participantId: body.participantId as string,
      sessionId: body.session.sessionId as string,
    };
  }

  const fields = (participantId: string, extra: Record<string, string> = {}) => ({
    participantId,
    studyCode: study.studyCode,
    firstName: 'Grace Brewster',
    lastName: 'Hopper',
    additionalInfo: 'Wears the tracker on the left wrist.',
    email: 'ignored@example.org',
    phoneNumber: '',
    ...extra,
  });
  const update = (
    sessionId: string | null,
    formFields: Record<string, string>,
    files: { field: string; name: string; data: Buffer }[] = [],
  ) =>
    injectMultipart(t.app, {
      url: '/api/participants/update-info',
      headers: sessionId ? { [SESSION]: sessionId } : {},
      fields: formFields,
      files,
    });

  it('requires the participant session of that participant', async () => {
    const me = await enrolled();
    const other = await enrolled();
    const anonymous = await update(null, fields(me.participantId));
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('PARTICIPANT_SESSION_REQUIRED');
    const wrongSession = await update(other.sessionId, fields(me.participantId));
    expect(wrongSession.statusCode).toBe(403);
    // A header no session could be is refused as malformed by the route's header schema.
    const malformed = await update('x'.repeat(201), fields(me.participantId));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDATION_ERROR');
    const [row] = await t.app.platform.db
      .select()
      .from(participants)
      .where(eq(participants.id, me.participantId));
    expect(row?.informationCompletedAt).toBeNull();
    expect(row?.firstName).toBe('Grace');
  });

  it('checks the session before reading any file: no session, no upload parsed', async () => {
    const me = await enrolled();
    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(10 * 1024 * 1024)]);
    // Without a session these would have been read first and refused as too large.
    const oversized = await update(null, fields(me.participantId), [
      { field: 'document_0', name: 'scan.pdf', data: big },
    ]);
    expect(oversized.statusCode).toBe(401);
    expect(oversized.json().code).toBe('PARTICIPANT_SESSION_REQUIRED');
    const seven = Array.from({ length: 7 }, (_, i) => ({
      field: `document_${i}`,
      name: `page-${i}.pdf`,
      data: SAMPLE_FILES.pdf,
    }));
    const tooMany = await update('not-a-session', fields(me.participantId), seven);
    expect(tooMany.statusCode).toBe(401);
    expect(tooMany.json().code).toBe('PARTICIPANT_SESSION_REQUIRED');
  });

  it('limits profile submissions per study and e-mail across client addresses', async () => {
    const me = await enrolled();
    const statuses: number[] = [];
    // Each call comes from another client address, so only the per-participant limit applies.
    for (let i = 0; i < 6; i++)
      statuses.push((await update(me.sessionId, fields(me.participantId))).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Another participant of the same study is not held back.
    const other = await enrolled();
    expect((await update(other.sessionId, fields(other.participantId))).statusCode).toBe(200);
  });

  it('accepts a .doc only when its container is a Word document', async () => {
    const me = await enrolled();
    const word = await update(me.sessionId, fields(me.participantId), [
      { field: 'document_0', name: 'letter.doc', data: CFB_SAMPLES.word() },
    ]);
    expect(word.statusCode, word.body).toBe(200);
    expect(word.json().documents).toEqual([
      expect.objectContaining({ name: 'letter.doc', type: 'application/msword' }),
    ]);
    for (const [name, data] of [
      ['budget.doc', CFB_SAMPLES.excel()],
      ['embedded.doc', CFB_SAMPLES.excelWithEmbeddedWord()],
    ] as const) {
      const res = await update(me.sessionId, fields(me.participantId), [
        { field: 'document_0', name, data },
      ]);
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toBe(
        `${name} is not an accepted document (pdf, doc, docx, jpg, jpeg, png or gif).`,
      );
    }
    const docs = await t.app.platform.db
      .select()
      .from(participantDocuments)
      .where(eq(participantDocuments.participantId, me.participantId));
    expect(docs.map((d) => d.name)).toEqual(['letter.doc']);
  });

  it('stores names, additional info and documents in the study bucket, and marks the information complete', async () => {
    const me = await enrolled();
    const res = await update(me.sessionId, fields(me.participantId), [
      { field: 'document_0', name: 'consent.pdf', data: SAMPLE_FILES.pdf },
      { field: 'document_1', name: 'wristband.png', data: SAMPLE_FILES.png },
      { field: 'document_2', name: 'animated.gif', data: GIF },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      participantId: me.participantId,
      informationCompleted: true,
    });
    expect(
      body.documents.map((d: { name: string; type: string; size: number }) => [
        d.name,
        d.type,
        d.size,
      ]),
    ).toEqual([
      ['animated.gif', 'image/gif', GIF.length],
      ['consent.pdf', 'application/pdf', SAMPLE_FILES.pdf.length],
      ['wristband.png', 'image/png', SAMPLE_FILES.png.length],
    ]);

    const [row] = await t.app.platform.db
      .select()
      .from(participants)
      .where(eq(participants.id, me.participantId));
    expect(row).toMatchObject({
      firstName: 'Grace Brewster',
      lastName: 'Hopper',
      additionalInfo: 'Wears the tracker on the left wrist.',
      email: me.email,
    });
    expect(row?.informationCompletedAt).toBeInstanceOf(Date);

    const docs = await t.app.platform.db
      .select()
      .from(participantDocuments)
      .where(eq(participantDocuments.participantId, me.participantId));
    expect(docs).toHaveLength(3);
    const bucket = studyBucket(t.config, study.id);
    for (const doc of docs) {
      expect(doc.objectKey.startsWith(`participants/${me.participantId}/documents/`)).toBe(true);
      const stored = await t.app.platform.objectStore.getObject(bucket, doc.objectKey);
      const chunks: Buffer[] = [];
      for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Buffer));
      expect(Buffer.concat(chunks).length).toBe(doc.sizeBytes);
    }
  });

  it('refuses a file whose content is not an accepted document, and stores nothing', async () => {
    const me = await enrolled();
    const res = await update(me.sessionId, fields(me.participantId), [
      { field: 'document_0', name: 'consent.pdf', data: SAMPLE_FILES.pdf },
      { field: 'document_1', name: 'photo.png', data: SAMPLE_FILES.exe },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe(
      'photo.png is not an accepted document (pdf, doc, docx, jpg, jpeg, png or gif).',
    );
    const docs = await t.app.platform.db
      .select()
      .from(participantDocuments)
      .where(eq(participantDocuments.participantId, me.participantId));
    expect(docs).toHaveLength(0);
  });

  it('accepts at most 5 documents: the limit is taken, one or two more refused with one text', async () => {
    const me = await enrolled();
    const documents = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        field: `document_${i}`,
        name: `page-${i}.pdf`,
        data: SAMPLE_FILES.pdf,
      }));
    for (const count of [DOCUMENT_MAX_FILES + 1, DOCUMENT_MAX_FILES + 2]) {
      const res = await update(me.sessionId, fields(me.participantId), documents(count));
      expect(res.statusCode, `${count} files`).toBe(413);
      expect(res.json()).toMatchObject({
        code: 'TOO_MANY_FILES',
        error: 'You can attach at most 5 documents.',
      });
    }
    const stored = () =>
      t.app.platform.db
        .select()
        .from(participantDocuments)
        .where(eq(participantDocuments.participantId, me.participantId));
    expect(await stored()).toHaveLength(0);
    const res = await update(me.sessionId, fields(me.participantId), documents(DOCUMENT_MAX_FILES));
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored()).toHaveLength(5);
  });

  it('keeps at most 20 documents a participant over all submissions, and stores none past that', async () => {
    const me = await enrolled();
    const five = Array.from({ length: DOCUMENT_MAX_FILES }, (_, i) => ({
      field: `document_${i}`,
      name: `scan-${i}.pdf`,
      data: SAMPLE_FILES.pdf,
    }));
    for (let i = 0; i < 4; i++) {
      const res = await update(me.sessionId, fields(me.participantId), five);
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await update(me.sessionId, fields(me.participantId), five.slice(0, 1));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({
      code: 'TOO_MANY_DOCUMENTS',
      error: PARTICIPANT_DOCUMENT_MESSAGES.tooManyKept,
    });
    const rows = await t.app.platform.db
      .select()
      .from(participantDocuments)
      .where(eq(participantDocuments.participantId, me.participantId));
    expect(rows).toHaveLength(PARTICIPANT_DOCUMENT_LIMITS.maxKeptFiles);
    const listed = await t.app.platform.objectStore.listObjects(studyBucket(t.config, study.id), {
      prefix: `participants/${me.participantId}/documents/`,
    });
    expect(listed.objects).toHaveLength(PARTICIPANT_DOCUMENT_LIMITS.maxKeptFiles);
  });

  it('refuses documents over 10 MB', async () => {
    const me = await enrolled();
    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await update(me.sessionId, fields(me.participantId), [
      { field: 'document_0', name: 'scan.pdf', data: big },
    ]);
    expect(res.statusCode).toBe(413);
  });

  it('answers the product’s text when the participant is gone', async () => {
    const me = await enrolled();
    await t.app.platform.db
      .update(participants)
      .set({ deletedAt: new Date() })
      .where(eq(participants.id, me.participantId));
    const res = await update(me.sessionId, fields(me.participantId));
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(
      'Missing participant data. Please restart the enrollment process.',
    );
  });

  it('checks the names with the product’s texts', async () => {
    const me = await enrolled();
    const long = await update(
      me.sessionId,
      fields(me.participantId, { lastName: 'x'.repeat(101) }),
    );
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields[0]).toEqual({
      field: 'lastName',
      message: 'Last name is too long (max 100 characters)',
    });
    const blank = await update(me.sessionId, fields(me.participantId, { firstName: ' ' }));
    expect(blank.json().details.fields[0].message).toBe('First name and last name are required');
  });
});
