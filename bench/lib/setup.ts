import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { createBenchDatabase, UNREACHED_RATE_LIMIT } from './database.js';

export interface BenchEnvironment {
  app: FastifyInstance;
  /** A bare Fastify app: `/bare` (JSON, no database) and `/bare-db` (one `select 1`). */
  bare: FastifyInstance;
  /** A pool on the bench database, for bulk seeding and the bare `select 1` route. */
  pool: pg.Pool;
  /** Creates an approved researcher through the real sign-up and review calls. */
  approvedResearcher(email: string, displayName?: string): Promise<{ token: string; id: string }>;
  close(): Promise<void>;
}

/**
 * The app on a database of its own (created here, dropped on close), configured as production
 * is, with a rate limit no single load generator reaches; nothing else on the server is touched.
 */
export async function startBenchEnvironment(
  name: string,
  env: Record<string, string> = {},
): Promise<BenchEnvironment> {
  const database = await createBenchDatabase(name);
  const config = loadConfig({
    ...database.env,
    ...UNREACHED_RATE_LIMIT,
    RUN_WORKERS: 'false',
    ...env,
  });
  // BENCH_VALIDATE_RESPONSES=1 parses every response with zod as well, the cost the generated
  // serializer removed: the "before" side of the README's profile comparison.
  const app = await buildApp(config, {
    validateResponses: process.env.BENCH_VALIDATE_RESPONSES === '1',
  });
  const pool = new pg.Pool({ connectionString: database.databaseUrl, max: 10 });
  const bare = Fastify();
  bare.get('/bare', async () => ({ success: true, data: [] }));
  // The floor for any database-backed route here: one trivial query through a pool.
  bare.get('/bare-db', async () => ({
    success: true,
    data: (await pool.query('select 1 as one')).rows,
  }));

  const ctx = { ip: '127.0.0.1' };
  const { master, auth } = app.services;
  let masterToken: string | undefined;

  return {
    app,
    bare,
    pool,
    async approvedResearcher(email, displayName = 'Bench Researcher') {
      if (!masterToken) {
        await master.createOrPromoteMaster({
          email: 'bench-master@example.org',
          password: 'bench-master',
        });
        masterToken = (
          await auth.login({ email: 'bench-master@example.org', password: 'bench-master' }, ctx)
        ).token;
      }
      const session = await auth.register({ email, password: 'bench-password', displayName }, ctx);
      // As following the mailed confirmation link does (where the schema has that column).
      await pool.query(
        `do $$ begin
           if exists (select 1 from information_schema.columns
                      where table_name = 'users' and column_name = 'email_verified_at')
           then update users set email_verified_at = now() where email = '${email.replaceAll("'", "''")}';
           end if;
         end $$`,
      );
      const submit = await app.inject({
        method: 'POST',
        url: '/api/admin/researcher-applications',
        headers: { authorization: `Bearer ${session.token}` },
        payload: {
          firstName: 'Bench',
          lastName: 'Researcher',
          email,
          dateOfBirth: '1980-01-01',
          phoneNumber: '(555) - 555 - 0100',
          institution: 'Benchmark University',
          position: 'Professor',
        },
      });
      const { applicationId } = submit.json() as { applicationId: string };
      await app.inject({
        method: 'POST',
        url: `/api/admin/researcher-applications/${applicationId}/approve`,
        headers: { authorization: `Bearer ${masterToken}` },
        payload: {},
      });
      const found = await auth.authenticate(session.token);
      if (!found) throw new Error('researcher session missing');
      return { token: session.token, id: found.user.id };
    },
    async close() {
      await app.close();
      await bare.close();
      await pool.end();
      // BENCH_KEEP=1 leaves the seeded database for `explain analyze` by hand.
      if (process.env.BENCH_KEEP) console.log(`Kept database ${database.dbName}.`);
      await database.drop(Boolean(process.env.BENCH_KEEP));
    },
  };
}
