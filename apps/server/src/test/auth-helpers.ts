import type { FastifyInstance } from 'fastify';

let counter = 0;
/** A unique address per call, so tests never collide on accounts. */
export const uniqueEmail = (prefix = 'researcher') =>
  `${prefix}.${Date.now().toString(36)}.${++counter}@example.org`;

/** A different client address per call, so per-address limits do not trip across tests. */
export const someAddress = () =>
  `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;

export async function registerUser(
  app: FastifyInstance,
  overrides: Partial<{ email: string; password: string; displayName: string }> = {},
) {
  const body = {
    email: uniqueEmail(),
    password: 'correct-horse',
    displayName: 'Ada Lovelace',
    ...overrides,
  };
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: body,
    remoteAddress: someAddress(),
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const json = res.json() as { token: string; user: { id: string; email: string } };
  return { ...body, token: json.token, user: json.user };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
