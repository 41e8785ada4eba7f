import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer, createMaster, researcherWithApplication } from './auth-helpers.js';

/** Test helpers for the "Go to Bucket" page and the signed links on it. */

/** An approved researcher's new study, created over HTTP (201), and the name of its bucket. */
export async function ownerWithStudy(app: FastifyInstance, name: string) {
  const owner = await researcherWithApplication(app, 'approved', await createMaster(app));
  const created = await app.inject({
    method: 'POST',
    url: '/api/auth/create-study',
    headers: bearer(owner.token),
    payload: { name },
  });
  expect(created.statusCode, created.body).toBe(201);
  const study = created.json().study as { id: string };
  return { owner, study, bucket: `study-${study.id}-data` };
}

/** The study's "Go to Bucket" link as the holder of `token` gets it (200). */
export async function bucketPageLink(app: FastifyInstance, token: string, studyId: string) {
  const signed = await app.inject({
    url: `/api/studies/${studyId}/bucket-signed-url`,
    headers: bearer(token),
  });
  expect(signed.statusCode, signed.body).toBe(200);
  return new URL(signed.json().signedUrl);
}

/** Follows a signed link (page or file) inside the app. */
export const visit = (app: FastifyInstance, url: URL) =>
  app.inject({ url: `${url.pathname}${url.search}` });
