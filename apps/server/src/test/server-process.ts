/**
 * The server process as main.ts starts it (buildApp, then the signal and fault handlers, then
 * listen), for tests that need a real process of their own. It prints `listening <port>` and
 * `closed` when the app has closed; `/test/stray/:kind` leaves behind, the way a bug would, a
 * promise nobody awaits or an exception outside any request.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.js';
import { closeOnSignals, handleProcessFaults, loadConfigOrExit } from '../process-lifecycle.js';

const config = loadConfigOrExit();
const app = await buildApp(config);
app.get('/test/pid', async () => ({ pid: process.pid }));
app.get('/test/stray/:kind', async (request) => {
  const { kind } = request.params as { kind: string };
  if (kind === 'query') {
    // A statement on the app's own pool (fails while the database is away). Drizzle runs a
    // query only once something awaits it.
    void app.platform.db.execute(sql`select 1`).then(() => undefined);
  } else if (kind === 'refused') {
    // A connection to a port nobody listens on: a real ECONNREFUSED.
    void new pg.Client({ host: '127.0.0.1', port: Number(process.env.TEST_CLOSED_PORT) }).connect();
  } else if (kind === 'rejection') {
    void Promise.reject(new Error('stray failure for participant ada.lovelace@example.org'));
  } else {
    setImmediate(() => {
      throw new Error('stray exception for participant ada.lovelace@example.org');
    });
  }
  return { ok: true };
});
app.addHook('onClose', async () => {
  console.log('closed');
});
closeOnSignals(app);
handleProcessFaults(app);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${new URL(address).port}`);
