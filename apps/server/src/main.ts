import { buildApp } from './app.js';
import { ensureSubscriber } from './cli/health-subscriber.js';
import { closeOnSignals, handleProcessFaults, loadConfigOrExit } from './process-lifecycle.js';

const config = loadConfigOrExit();
const app = await buildApp(config);
closeOnSignals(app);
handleProcessFaults(app);
await app.listen({ port: config.port, host: config.host });

const lines = [
  `API and web app   ${config.publicUrl}`,
  `API docs          ${config.publicUrl}/api/docs`,
  `Database          ${config.database.kind === 'pglite' ? `embedded (PGlite) in ${config.database.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
  `Files             ${config.storage.driver === 'fs' ? config.storage.root : 'S3'}`,
  `Background jobs   ${config.runWorkers ? 'running in this process' : 'off here (run npm run start:worker)'}`,
];
if (config.mail.usesSandbox)
  lines.push('Mail and SMS      captured by the sandbox (SMTP_URL / TWILIO_BASE_URL not set)');
console.log(`\n${lines.join('\n')}\n`);

// On the local defaults the sandbox plays Google: this server registers itself as its webhook
// subscriber, so a simulated device's sync reaches the study without an operator's step.
// The sandbox starts beside this process and may not answer yet: a few tries, then a warning.
if (config.googleHealth.webhooks.usesSandbox) {
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureSubscriber(config);
      break;
    } catch (error) {
      if (attempt === 10) {
        app.log.warn({ err: error }, 'sandbox webhook subscriber not registered');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

// Until a master account exists, anyone at this console can create it from a single-use link.
const setupLink = await app.services.master.ensureSetupLink();
if (setupLink) {
  console.log(
    `No master account yet. Create it here (single use, valid 24 hours):\n  ${setupLink}\n`,
  );
}
