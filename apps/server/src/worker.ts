import { buildApp } from './app.js';
import { closeOnSignals, handleProcessFaults, loadConfigOrExit } from './process-lifecycle.js';

// A worker process consumes jobs without serving HTTP. The embedded database belongs to one
// process, so separate workers need PostgreSQL.
const config = loadConfigOrExit({ RUN_WORKERS: 'true' });
if (config.database.kind !== 'postgres') {
  console.error(
    'npm run start:worker needs PostgreSQL: set DATABASE_URL. (npm start runs workers in-process on the embedded database.)',
  );
  process.exit(1);
}
const app = await buildApp(config);
closeOnSignals(app);
handleProcessFaults(app);
await app.ready();
app.log.info('worker started');
