import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DatabaseLockedError, openDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { ADMIN_KEY_FILE, createMasterBodySchema } from '../modules/auth/local-admin.routes.js';
import { createMasterService } from '../modules/auth/master.service.js';
import { loadConfigOrExit } from '../process-lifecycle.js';

const USAGE = `Usage:
  npm run admin -- create-master --email <address> [--password <password>] [--name "<display name>"]

Creates the master account, or promotes an existing account to master. Without --password it
prints a single-use link (valid 24 hours) where the password is chosen. Works whether or not the
server is running.`;

type Result = { email: string; created: boolean; setPasswordUrl?: string | undefined };

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || positionals[0] !== 'create-master') {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  const parsed = createMasterBodySchema.safeParse({
    email: values.email ?? '',
    ...(values.password !== undefined ? { password: values.password } : {}),
    ...(values.name !== undefined ? { displayName: values.name } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      console.error(
        `--${issue.path[0] === 'displayName' ? 'name' : String(issue.path[0])}: ${issue.message}`,
      );
    return 1;
  }

  const config = loadConfigOrExit();
  let result: Result;
  try {
    const database = await openDatabase(config.database);
    try {
      await runMigrations(database, config.database);
      result = await createMasterService({ db: database.db, config }).createOrPromoteMaster(
        parsed.data,
      );
    } finally {
      await database.close();
    }
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    // The running server holds the embedded database: ask it.
    const key = await readFile(path.join(config.dataDir, ADMIN_KEY_FILE), 'utf8').catch(() => '');
    const response = await fetch(`http://127.0.0.1:${config.port}/api/local-admin/create-master`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-key': key.trim() },
      body: JSON.stringify(parsed.data),
    }).catch(() => null);
    const body = (await response?.json().catch(() => null)) as
      | (Result & { message?: string })
      | null;
    if (!response?.ok || !body) {
      console.error(
        `The server holding ${config.database.kind === 'pglite' ? config.database.dataDir : 'the database'} did not accept the request: ${body?.message ?? `no answer on port ${config.port}`}`,
      );
      return 1;
    }
    result = z
      .object({ email: z.string(), created: z.boolean(), setPasswordUrl: z.string().optional() })
      .parse(body);
  }
  console.log(`${result.created ? 'Created' : 'Promoted'} master account ${result.email}.`);
  if (result.setPasswordUrl)
    console.log(
      `Choose its password here (single use, valid 24 hours):\n  ${result.setPasswordUrl}`,
    );
  return 0;
}

process.exit(await main());
