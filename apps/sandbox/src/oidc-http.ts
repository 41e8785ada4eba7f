import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { formTargetFor, PAGE_CSP, pageCsp } from './html.js';

/** Helpers the issuer's routes share: reading form and query values, answering errors. */

export const AUTHORIZE_PATH = '/o/oauth2/v2/auth';
export const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

type Params = Record<string, unknown>;

export function param(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Params)[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export function params(source: unknown, name: string): string[] {
  if (typeof source !== 'object' || source === null) return [];
  const value = (source as Params)[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a === b;
}

/** The sandbox accepts any loopback http redirect, which is what local runs and tests use. */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) &&
    url.hash === '' &&
    url.username === '' &&
    url.password === ''
  );
}

export function withParams(
  base: string,
  values: Record<string, string | null | undefined>,
): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(values)) {
    if (value !== null && value !== undefined) url.searchParams.set(key, value);
  }
  return url.toString();
}

export function sendHtml(reply: FastifyReply, status: number, html: string, redirectUri?: string) {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header(
      'Content-Security-Policy',
      redirectUri ? pageCsp([formTargetFor(redirectUri)]) : PAGE_CSP,
    )
    .header('Cache-Control', 'no-store')
    .send(html);
}

export function oauthError(
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
) {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .send({ error, error_description: description });
}

export function base64UrlSha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
