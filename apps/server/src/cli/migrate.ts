import { openDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { loadConfigOrExit } from '../process-lifecycle.js';

const config = loadConfigOrExit();
const database = await openDatabase(config.database);
try {
  await runMigrations(database, config.database);
  console.log(`Migrations applied (${config.database.kind}).`);
} finally {
  await database.close();
}
