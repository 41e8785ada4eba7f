import {
  JOIN_MESSAGES,
  NOTIFY_RESEARCHER_MESSAGES,
  STUDY_MESSAGES,
  studiesApi,
} from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { currentUser } from '../auth/index.js';
import { bucketListingKey, bucketListingUrl } from '../storage/index.js';
import { requireApprovedResearcher, requireStudyMember, studyAccessOf } from './study-access.js';

export const studiesRoutes: FastifyPluginAsync = async (app) => {
  const listingKey = bucketListingKey(app.platform.keyRing);
  const studies = app.services.studies;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });
  const member = { preHandler: requireStudyMember };
  const researcher = { preHandler: requireApprovedResearcher };

  const lists = [
    [studiesApi.listOwnedStudies, 'main'],
    [studiesApi.listCollaborativeStudies, 'collab'],
    [studiesApi.listStudies, 'main'],
  ] as const;
  for (const [operation, role] of lists) {
    route(app, operation, {
      ...researcher,
      handler: async (request) => ({
        success: true as const,
        ...(await studies.list(currentUser(request).id, role, request.query)),
      }),
    });
  }

  route(app, studiesApi.createStudy, {
    ...researcher,
    config: RATE_LIMITS.createStudy,
    handler: async (request, reply) => {
      const study = await studies.create(currentUser(request), request.body, ctx(request));
      reply.status(201);
      return {
        success: true as const,
        study,
        message: `Study created. Its code is ${study.studyCode}.`,
      };
    },
  });

  route(app, studiesApi.getStudy, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      study: await studies.get(studyAccessOf(request)),
    }),
  });

  for (const operation of [studiesApi.updateStudy, studiesApi.updateStudyRest]) {
    route(app, operation, {
      ...member,
      handler: async (request) => ({
        success: true as const,
        study: await studies.update(
          studyAccessOf(request),
          currentUser(request),
          request.body,
          ctx(request),
        ),
      }),
    });
  }

  for (const operation of [studiesApi.deleteStudy, studiesApi.deleteStudyRest]) {
    route(app, operation, {
      ...member,
      handler: async (request) => {
        await studies.remove(studyAccessOf(request), currentUser(request), ctx(request));
        return { success: true as const };
      },
    });
  }

  route(app, studiesApi.joinStudy, {
    ...researcher,
    config: RATE_LIMITS.joinStudy,
    handler: async (request) => {
      const { study, alreadyMember } = await studies.join(
        currentUser(request),
        request.body,
        ctx(request),
      );
      return {
        success: true as const,
        study,
        alreadyMember,
        message: alreadyMember ? JOIN_MESSAGES.alreadyMember : STUDY_MESSAGES.joined,
      };
    },
  });

  // The participants' first call: a group on one network shares the address.
  route(app, studiesApi.verifyStudyCode, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request) => ({
      success: true as const,
      study: await studies.lookup(request.body.studyCode),
    }),
  });

  route(app, studiesApi.notifyResearcher, {
    config: RATE_LIMITS.notifyResearcher,
    handler: async (request) => {
      await studies.notifyResearcher(request.body, ctx(request));
      return { success: true as const, message: NOTIFY_RESEARCHER_MESSAGES.sent };
    },
  });

  route(app, studiesApi.getBucketUrl, {
    ...member,
    handler: async (request) => {
      const bucket = await studies.bucketUrl(
        studyAccessOf(request),
        currentUser(request),
        ctx(request),
      );
      return {
        success: true as const,
        signedUrl: bucketListingUrl(
          app.platform.config.publicUrl,
          listingKey,
          bucket,
          currentUser(request).id,
        ),
        message: 'The link is valid for 15 minutes.',
      };
    },
  });
};
