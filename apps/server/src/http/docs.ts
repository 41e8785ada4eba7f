import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { PARTICIPANT_SESSION_DOC, PARTICIPANT_SESSION_HEADER } from '@research/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { AppConfig } from '../config.js';

/** OpenAPI generated from the same zod schemas that validate each route. */
export async function registerDocs(app: FastifyInstance, config: AppConfig) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Wearable Health Research Platform API',
        description:
          'Researcher, administration and participant calls. Authenticated calls send `Authorization: Bearer <token>`.',
        version: '1.0.0',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          participantSession: {
            type: 'apiKey',
            in: 'header',
            name: PARTICIPANT_SESSION_HEADER,
            description: PARTICIPANT_SESSION_DOC,
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
}
