import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  healthNotificationRefusals,
  healthNotifications,
  healthNotificationWork,
  wearableConnections,
} from '../../db/schema/index.js';
import { someAddress } from '../../test/auth-helpers.js';
import { eventually, type TestAppOptions, useTestApp } from '../../test/test-app.js';
import {
  type KeysetServer,
  newSigningKey,
  startKeysetServer,
  tinkSign,
} from '../../test/tink-kit.js';
import { studyWithParticipants } from '../../test/wearables-kit.js';

const SECRET = `Bearer ${randomBytes(24).toString('hex')}`;
const PREVIOUS_SECRET = `Bearer ${randomBytes(24).toString('hex')}`;
const URL = '/webhooks/google-health';

const googleKey = newSigningKey(0x2a3b4c5d, { leadingZero: true });
const strangerKey = newSigningKey(0x2a3b4c5d);

/** A notification as Google sends it, with a fresh subscription name so each body is new. */
function notification(
  healthUserId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    data: {
      version: '1',
      clientProvidedSubscriptionName: randomBytes(16).toString('hex'),
      healthUserId,
      operation: 'UPSERT',
      dataType: 'steps',
      intervals: [
        {
          physicalTimeInterval: {
            startTime: '2026-10-05T01:29:00Z',
            endTime: '2026-10-05T01:34:00Z',
          },
          civilDateTimeInterval: {
            startDateTime: {
              date: { year: 2026, month: 10, day: 5 },
              time: { hours: 10, minutes: 29 },
            },
            endDateTime: {
              date: { year: 2026, month: 10, day: 5 },
              time: { hours: 10, minutes: 34 },
            },
          },
          civilIso8601TimeInterval: {
            startTime: '2026-10-05T10:29:00',
            endTime: '2026-10-05T10:34:00',
          },
        },
      ],
      ...overrides,
    },
  };
}

describe('POST /webhooks/google-health', () => {
  let keyset: KeysetServer;
  const options: TestAppOptions & { env: Record<string, string> } = {
    env: {
      GOOGLE_HEALTH_WEBHOOK_SECRET: SECRET,
      GOOGLE_HEALTH_WEBHOOK_SECRET_PREVIOUS: PREVIOUS_SECRET,
    },
  };
  // Runs before the app's own beforeAll: the app is configured with the keyset's address.
  beforeAll(async () => {
    keyset = await startKeysetServer([googleKey]);
    options.env.GOOGLE_HEALTH_WEBHOOK_KEYSET_URL = keyset.url;
  });
  afterAll(() => keyset.close());
  const t = useTestApp(options);

  const post = (body: string | Buffer, headers: Record<string, string | undefined> = {}) =>
    t.app.inject({
      method: 'POST',
      url: URL,
      remoteAddress: someAddress(),
      headers: { 'content-type': 'application/json', ...headers } as Record<string, string>,
      payload: body,
    });

  const signed = (value: unknown, headers: Record<string, string> = {}) => {
    const body = JSON.stringify(value);
    return post(body, {
      authorization: SECRET,
      'google-health-api-signature': tinkSign(googleKey, body),
      ...headers,
    });
  };

  const refusals = async () => {
    await t.app.healthNotifications.flushRefusals();
    const rows = await t.app.platform.db.select().from(healthNotificationRefusals);
    const totals: Record<string, number> = {};
    for (const row of rows) totals[row.reason] = (totals[row.reason] ?? 0) + row.count;
    return totals;
  };

  const storedFor = (healthUserId: string) =>
    t.app.platform.db
      .select()
      .from(healthNotifications)
      .where(eq(healthNotifications.healthUserId, healthUserId))
      .orderBy(asc(healthNotifications.receivedAt));

  /** One person (one Google account) connected in two studies. */
  async function personInTwoStudies() {
    const healthUserId = String(BigInt(`0x${randomBytes(7).toString('hex')}`));
    const connections: { id: string; studyId: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const world = await studyWithParticipants(t.app);
      const participant = await world.addParticipant();
      const [row] = await t.app.platform.db
        .insert(wearableConnections)
        .values({
          participantId: participant.id,
          studyId: world.study.id,
          healthUserId,
          grantedScopes: [
            'https://www.googleapis.com/auth/googlehealth.activity_and_fitness.readonly',
          ],
        })
        .returning();
      if (!row) throw new Error('connection not inserted');
      connections.push({ id: row.id, studyId: row.studyId });
    }
    return { healthUserId, connections };
  }

  const workOf = (connectionId: string) =>
    t.app.platform.db
      .select()
      .from(healthNotificationWork)
      .where(eq(healthNotificationWork.connectionId, connectionId))
      .orderBy(asc(healthNotificationWork.day));

  describe('the endpoint check Google makes on registration', () => {
    const check = JSON.stringify({ type: 'verification' });

    it('answers 201 with the secret, 401 without it or with another one, and counts the refusals', async () => {
      const before = await refusals();
      expect((await post(check, { authorization: SECRET })).statusCode).toBe(201);
      const without = await post(check);
      expect(without.statusCode).toBe(401);
      expect(without.json()).toMatchObject({ success: false, code: 'WEBHOOK_UNAUTHORIZED' });
      expect((await post(check, { authorization: `${SECRET}x` })).statusCode).toBe(401);
      expect((await post(check, { authorization: SECRET.toLowerCase() })).statusCode).toBe(401);
      const after = await refusals();
      expect((after.missing_authorization ?? 0) - (before.missing_authorization ?? 0)).toBe(1);
      expect((after.wrong_authorization ?? 0) - (before.wrong_authorization ?? 0)).toBe(2);
    });

    it('accepts the previous secret while a rotation is under way', async () => {
      expect((await post(check, { authorization: PREVIOUS_SECRET })).statusCode).toBe(201);
    });

    it('refuses a caller without the secret before reading its body, however large', async () => {
      const huge = Buffer.alloc(2 * 1024 * 1024, 'a');
      expect((await post(huge, { authorization: 'Bearer guess' })).statusCode).toBe(401);
      // With the secret, the same body is too large.
      expect((await post(huge, { authorization: SECRET })).statusCode).toBe(413);
    });
  });

  describe('signed notifications', () => {
    it('stores a signed notification, answers 204, and maps it to both studies of the account', async () => {
      const person = await personInTwoStudies();
      const res = await signed(notification(person.healthUserId));
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      const [stored] = await storedFor(person.healthUserId);
      expect(stored).toMatchObject({ operation: 'UPSERT', dataType: 'steps', position: 0 });
      expect(stored?.intervals).toHaveLength(1);

      // The job finds both connections of the account and asks for 2026-10-05 in each (the
      // collection then fetches it: see collection/notified.test.ts).
      for (const connection of person.connections) {
        const work = await eventually(async () => {
          const rows = await workOf(connection.id);
          return rows.length > 0 ? rows : undefined;
        });
        expect(work).toEqual([
          expect.objectContaining({
            studyId: connection.studyId,
            dataType: 'steps',
            day: '2026-10-05',

            deleted: 0,
          }),
        ]);
      }
      const [resolved] = await storedFor(person.healthUserId);
      expect(resolved?.resolvedAt).not.toBeNull();
      expect(resolved?.connectionCount).toBe(2);
    });

    it('stores a body sent again once, and a second notification of the same day adds no row', async () => {
      const person = await personInTwoStudies();
      const body = JSON.stringify(notification(person.healthUserId));
      const headers = {
        authorization: SECRET,
        'google-health-api-signature': tinkSign(googleKey, body),
      };
      expect((await post(body, headers)).statusCode).toBe(204);
      expect((await post(body, headers)).statusCode).toBe(204);
      expect(await storedFor(person.healthUserId)).toHaveLength(1);
      const connection = person.connections[0]?.id ?? '';
      await eventually(async () => (await workOf(connection)).length === 1);

      // A new notification (another body) for the same day: the same row, a new generation.
      expect((await signed(notification(person.healthUserId))).statusCode).toBe(204);
      const bumped = await eventually(async () => {
        const rows = await workOf(connection);
        return rows[0] && rows[0].generation === 2 ? rows : undefined;
      });
      expect(bumped).toHaveLength(1);

      // The job run again (a duplicate copy, a retry after a crash) changes nothing.
      const [first] = await storedFor(person.healthUserId);
      expect(await t.app.healthNotifications.resolve(first?.id ?? '')).toEqual([]);
      expect((await workOf(connection))[0]?.generation).toBe(2);
    });

    it('marks a DELETE, and reads a JSON array whose intervals carry one form each', async () => {
      const person = await personInTwoStudies();
      const body = [
        notification(person.healthUserId, {
          operation: 'DELETE',
          dataType: 'heartRate',
          intervals: [
            {
              civilIso8601TimeInterval: {
                startTime: '2026-10-06T23:00:00',
                endTime: '2026-10-07T01:00:00',
              },
            },
          ],
        }),
        notification(person.healthUserId, {
          dataType: 'sleep',
          intervals: [
            {
              civilDateTimeInterval: {
                startDateTime: { date: { year: 2026, month: 10, day: 8 }, time: { hours: 22 } },
                endDateTime: { date: { year: 2026, month: 10, day: 9 }, time: {} },
              },
            },
          ],
        }),
      ];
      expect((await signed(body)).statusCode).toBe(204);
      expect(await storedFor(person.healthUserId)).toHaveLength(2);
      const connection = person.connections[1]?.id ?? '';
      const work = await eventually(async () => {
        const rows = await workOf(connection);
        return rows.length === 3 ? rows : undefined;
      });
      expect(work.map((w) => [w.dataType, w.day, w.deleted])).toEqual([
        ['heart-rate', '2026-10-06', 1],
        ['heart-rate', '2026-10-07', 1],
        // Ends at midnight: the 9th is not touched.
        ['sleep', '2026-10-08', 0],
      ]);
    });

    it('accepts the older signature header name', async () => {
      const person = await personInTwoStudies();
      const body = JSON.stringify(notification(person.healthUserId));
      const res = await post(body, {
        authorization: SECRET,
        'x-healthapi-signature': tinkSign(googleKey, body),
      });
      expect(res.statusCode).toBe(204);
      // Signed bytes are what counts, whatever the content type says (or if it says nothing).
      const other = JSON.stringify(notification(person.healthUserId));
      const untyped = await t.app.inject({
        method: 'POST',
        url: URL,
        remoteAddress: someAddress(),
        headers: {
          authorization: SECRET,
          'google-health-api-signature': tinkSign(googleKey, other),
        },
        payload: other,
      });
      expect(untyped.statusCode, untyped.body).toBe(204);
      expect(await storedFor(person.healthUserId)).toHaveLength(2);
    });

    it('refuses a tampered body, another key, an unknown key id or no signature: 401, counted, nothing stored', async () => {
      const person = await personInTwoStudies();
      const before = await refusals();
      const original = JSON.stringify(notification(person.healthUserId));
      const tampered = original.replace('UPSERT', 'DELETE');
      const cases: [string, Record<string, string>][] = [
        [tampered, { 'google-health-api-signature': tinkSign(googleKey, original) }],
        [original, { 'google-health-api-signature': tinkSign(strangerKey, original) }],
        [original, { 'google-health-api-signature': tinkSign(googleKey, original, 77) }],
        [original, {}],
        [original, { 'google-health-api-signature': 'AQID' }],
      ];
      for (const [body, headers] of cases) {
        const res = await post(body, { authorization: SECRET, ...headers });
        expect(res.statusCode, body).toBe(401);
        expect(res.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
      }
      expect(await storedFor(person.healthUserId)).toHaveLength(0);
      const after = await refusals();
      const added = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
      expect(added('bad_signature')).toBe(2);
      expect(added('unknown_key')).toBe(1);
      expect(added('missing_signature')).toBe(1);
      expect(added('malformed_signature')).toBe(1);
    });

    it('answers 400 to a signed body that is not a notification, and counts it', async () => {
      const before = await refusals();
      const res = await signed({ data: { healthUserId: 'x', operation: 'MERGE' } });
      expect(res.statusCode).toBe(400);
      expect((await refusals()).invalid_payload).toBe((before.invalid_payload ?? 0) + 1);
    });

    it('resolves a notification stored by a process that died before queueing its drain', async () => {
      const person = await personInTwoStudies();
      const [row] = await t.app.platform.db
        .insert(healthNotifications)
        .values({
          bodySha256: randomBytes(32).toString('hex'),
          healthUserId: person.healthUserId,
          operation: 'UPSERT',
          dataType: 'weight',
          intervals: [],
          payload: notification(person.healthUserId),
        })
        .returning();
      // The drain that runs every minute (called here rather than waited for).
      await t.app.healthNotifications.drain();
      const [resolved] = await storedFor(person.healthUserId);
      expect(resolved?.id).toBe(row?.id);
      expect(resolved?.connectionCount).toBe(2);
      // No interval: the whole range of that data type is to be fetched again.
      expect(
        (await workOf(person.connections[0]?.id ?? '')).map((w) => [w.dataType, w.day]),
      ).toEqual([['weight', null]]);
    });

    it('resolves a notification about an account nobody here holds to no work', async () => {
      const healthUserId = '99999999999';
      expect((await signed(notification(healthUserId))).statusCode).toBe(204);
      const resolved = await eventually(async () => {
        const [row] = await storedFor(healthUserId);
        return row?.resolvedAt ? row : undefined;
      });
      expect(resolved.connectionCount).toBe(0);
    });
  });
});

describe('the daily purge', () => {
  const t = useTestApp({ env: { GOOGLE_HEALTH_WEBHOOK_SECRET: SECRET } });

  it('removes resolved notifications, ended work and old refusal counts past their retention, and never what still waits', async () => {
    const db = t.app.platform.db;
    const world = await studyWithParticipants(t.app);
    const participant = await world.addParticipant();
    const [connection] = await db
      .insert(wearableConnections)
      .values({
        participantId: participant.id,
        studyId: world.study.id,
        provider: 'google-health',
        healthUserId: '5550001',
        status: 'active',
      })
      .returning();
    const old = new Date(Date.now() - 31 * 86_400_000);
    const stored = (resolvedAt: Date | null) => ({
      bodySha256: randomBytes(32).toString('hex'),
      receivedAt: old,
      healthUserId: '5550001',
      operation: 'UPSERT' as const,
      dataType: 'steps',
      payload: {},
      resolvedAt,
    });
    const notifications = await db
      .insert(healthNotifications)
      .values([stored(old), stored(null), { ...stored(new Date()), receivedAt: new Date() }])
      .returning();
    const work = (day: string, state: 'done' | 'pending', updatedAt: Date) => ({
      connectionId: connection?.id as string,
      studyId: world.study.id,
      dataType: 'steps',
      day,
      state,
      updatedAt,
    });
    await db
      .insert(healthNotificationWork)
      .values([
        work('2026-10-01', 'done', old),
        work('2026-10-02', 'pending', old),
        work('2026-10-03', 'done', new Date()),
      ]);
    await db.insert(healthNotificationRefusals).values([
      { day: '2026-01-01', reason: 'bad_signature', count: 3 },
      { day: new Date().toISOString().slice(0, 10), reason: 'bad_signature', count: 1 },
    ]);

    expect(await t.app.healthNotifications.purge()).toEqual({
      notifications: 1,
      work: 1,
      refusals: 1,
    });
    const left = await db.select().from(healthNotifications);
    expect(left.map((n) => n.id).sort()).toEqual(
      [notifications[1]?.id, notifications[2]?.id].sort(),
    );
    const leftWork = await db
      .select()
      .from(healthNotificationWork)
      .where(eq(healthNotificationWork.connectionId, connection?.id as string));
    expect(leftWork.map((w) => w.day).sort()).toEqual(['2026-10-02', '2026-10-03']);
    expect(await db.select().from(healthNotificationRefusals)).toHaveLength(1);
  });
});

describe('POST /webhooks/google-health under a burst', () => {
  const t = useTestApp({
    env: { GOOGLE_HEALTH_WEBHOOK_SECRET: SECRET, GOOGLE_HEALTH_WEBHOOK_RATE_LIMIT: '3' },
  });

  it('limits calls per sending address (the global limit leaves non-API paths alone)', async () => {
    const address = someAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        remoteAddress: address,
        headers: { 'content-type': 'application/json', authorization: SECRET },
        payload: { type: 'verification' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
  });
});
