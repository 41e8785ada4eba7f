import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  addParticipantBodySchema,
  authApi,
  createMasterRequestSchema,
  createMasterResponseSchema,
} from '@research/contracts';
import { z } from 'zod';
import { DatabaseLockedError, openDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { ADMIN_KEY_FILE, SERVER_INFO_FILE } from '../http/local-admin.js';
import { createMasterService } from '../modules/auth/index.js';
import { addParticipant } from '../modules/participant-access/index.js';
import { loadConfigOrExit } from '../process-lifecycle.js';
import { HEALTH_SUBSCRIBER_USAGE, healthSubscriberCommand } from './health-subscriber.js';

const USAGE = `Usage:
  npm run admin -- create-master --email <address> [--password <password>] [--name "<display name>"]

Creates the master account, or promotes an existing account to master. Without --password it
prints a single-use link (valid 24 hours) where the password is chosen. Works whether or not the
server is running.

  npm run admin -- add-participant --study-code <code> --email <address> [--first-name <name>] [--last-name <name>] [--phone <number>]

Adds a participant to a study (or finds the one with that e-mail) and prints the participant id,
for demos, support and browser tests (participants normally enrol themselves).

${HEALTH_SUBSCRIBER_USAGE}`;

type Result = { email: string; created: boolean; setPasswordUrl?: string | undefined };

/** The file's JSON, or null when it is missing or cut short (a server killed mid-write). */
function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Where the running server listens: from the file it writes in DATA_DIR, else PORT. */
async function serverUrl(dataDir: string, port: number): Promise<string> {
  const text = await readFile(path.join(dataDir, SERVER_INFO_FILE), 'utf8').catch(() => '');
  const parsed = z
    .object({ url: z.string().regex(/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/) })
    .safeParse(parseJson(text));
  return parsed.success ? parsed.data.url : `http://127.0.0.1:${port}`;
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean' },
      'study-code': { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      phone: { type: 'string' },
      id: { type: 'string' },
      force: { type: 'boolean' },
    },
  });
  if (positionals[0] === 'health-subscriber' && !values.help) {
    return healthSubscriberCommand(
      positionals[1],
      { id: values.id, force: values.force },
      loadConfigOrExit(),
    );
  }
  if (positionals[0] === 'add-participant' && !values.help) return addParticipantCommand(values);
  if (values.help || positionals[0] !== 'create-master') {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  const parsed = createMasterRequestSchema.safeParse({
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
    const baseUrl = await serverUrl(config.dataDir, config.port);
    const response = await fetch(`${baseUrl}${authApi.localCreateMaster.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-key': key.trim() },
      body: JSON.stringify(parsed.data),
    }).catch(() => null);
    const body = (await response?.json().catch(() => null)) as
      | (Result & { message?: string })
      | null;
    if (!response?.ok || !body) {
      console.error(
        `The server holding ${config.database.kind === 'pglite' ? config.database.dataDir : 'the database'} did not accept the request: ${body?.message ?? `no answer at ${baseUrl}`}`,
      );
      return 1;
    }
    result = createMasterResponseSchema.parse(body);
  }
  console.log(`${result.created ? 'Created' : 'Promoted'} master account ${result.email}.`);
  if (result.setPasswordUrl)
    console.log(
      `Choose its password here (single use, valid 24 hours):\n  ${result.setPasswordUrl}`,
    );
  return 0;
}

/** `add-participant`: straight to the database, or through the running server that holds it. */
async function addParticipantCommand(values: Record<string, string | boolean | undefined>) {
  const parsed = addParticipantBodySchema.safeParse({
    studyCode: values['study-code'] ?? '',
    email: values.email ?? '',
    ...(typeof values['first-name'] === 'string' ? { firstName: values['first-name'] } : {}),
    ...(typeof values['last-name'] === 'string' ? { lastName: values['last-name'] } : {}),
    ...(typeof values.phone === 'string' ? { phoneNumber: values.phone } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      console.error(`${String(issue.path[0])}: ${issue.message}`);
    return 1;
  }
  const config = loadConfigOrExit();
  let result: { participantId: string; created: boolean };
  try {
    const database = await openDatabase(config.database);
    try {
      await runMigrations(database, config.database);
      result = await addParticipant(database.db, parsed.data);
    } finally {
      await database.close();
    }
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) {
      console.error(error instanceof Error ? error.message : String(error));
      return 1;
    }
    const key = await readFile(path.join(config.dataDir, ADMIN_KEY_FILE), 'utf8').catch(() => '');
    const baseUrl = await serverUrl(config.dataDir, config.port);
    const response = await fetch(`${baseUrl}/api/local-admin/add-participant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-key': key.trim() },
      body: JSON.stringify(parsed.data),
    }).catch(() => null);
    const body = (await response?.json().catch(() => null)) as {
      participantId?: string;
      created?: boolean;
      message?: string;
    } | null;
    if (!response?.ok || !body?.participantId) {
      console.error(
        `The server did not add the participant: ${body?.message ?? `no answer at ${baseUrl}`}`,
      );
      return 1;
    }
    result = { participantId: body.participantId, created: Boolean(body.created) };
  }
  console.log(`${result.created ? 'Added' : 'Found'} participant ${result.participantId}`);
  return 0;
}

process.exit(await main());
