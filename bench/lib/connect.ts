import type { FastifyInstance } from 'fastify';
import {
  consentAt,
  participantSessionHeaders,
  type studyWithParticipants,
} from '../../apps/server/src/test/wearables-kit.js';

type World = Awaited<ReturnType<typeof studyWithParticipants>>;

/**
 * Adds the i-th bench participant and connects them through the real OAuth flow (auth-url, the
 * sandbox's consent as `account`, callback), each from an address of its own since the routes
 * are limited per address. Returns the participant id.
 */
export async function connectParticipant(
  app: FastifyInstance,
  world: World,
  i: number,
  account: string,
  lastName: string,
): Promise<string> {
  const participant = await world.addParticipant({ firstName: 'Bench', lastName });
  const remoteAddress = `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;
  const url = await app.inject({
    method: 'GET',
    url: '/api/fitbit/auth-url',
    // A first connection needs the session enrolment issues once the e-mail is verified.
    headers: await participantSessionHeaders(app, world.study.studyCode, participant),
    remoteAddress,
    query: {
      participantId: participant.id,
      studyCode: world.study.studyCode,
      email: participant.email,
    },
  });
  if (url.statusCode !== 200) throw new Error(`auth-url: ${url.statusCode} ${url.body}`);
  const consent = await consentAt((url.json() as { authUrl: string }).authUrl, { account });
  const callback = await app.inject({
    method: 'POST',
    url: '/api/fitbit/callback',
    remoteAddress,
    payload: { code: consent.code, state: consent.state, participantId: participant.id },
  });
  if (callback.statusCode !== 200) throw new Error(`callback: ${callback.statusCode}`);
  return participant.id;
}
