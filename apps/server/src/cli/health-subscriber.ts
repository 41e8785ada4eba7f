import type { AppConfig } from '../config.js';
import { subscribedDataTypes } from '../modules/health-notifications/index.js';
import {
  createSubscribersClient,
  DEFAULT_SUBSCRIBER_ID,
  loadServiceAccountKey,
  SUBSCRIBER_ID,
  type Subscriber,
  SubscriberApiError,
  type SubscriberConfig,
  type SubscribersClient,
} from '../platform/google-health/subscribers.js';

/**
 * `health-subscriber create|show|delete`: the operator registers (or updates), inspects and
 * removes the Cloud project's webhook subscriber, which tells Google where to send change
 * notifications for the data types the research types read.
 */

export const HEALTH_SUBSCRIBER_USAGE = `  npm run admin -- health-subscriber create|show|delete [--id <subscriber id>] [--force]

Registers the Google Health webhook subscriber of the Cloud project (create; runs again to update
its endpoint, secret and data types), prints it (show) or removes it (delete, needs --force).
Uses GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE, GOOGLE_HEALTH_PROJECT_NUMBER, GOOGLE_HEALTH_WEBHOOK_SECRET
and PUBLIC_URL + /webhooks/google-health; locally they default to the sandbox. The id defaults to
"${DEFAULT_SUBSCRIBER_ID}".`;

function wantedConfigs(): SubscriberConfig[] {
  return [{ dataTypes: subscribedDataTypes(), subscriptionCreatePolicy: 'AUTOMATIC' }];
}

/** What is missing or unusable in the configuration, one line each. */
function configProblems(config: AppConfig): string[] {
  const { webhooks } = config.googleHealth;
  const problems: string[] = [];
  if (!webhooks.serviceAccount) {
    problems.push(
      'GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE is not set: the JSON key of a service account holding a Google Health API IAM role.',
    );
  }
  if (!webhooks.projectNumber) {
    problems.push(
      'GOOGLE_HEALTH_PROJECT_NUMBER is not set: the Cloud project number (digits, not the project id).',
    );
  }
  if (!webhooks.secret) {
    problems.push(
      'GOOGLE_HEALTH_WEBHOOK_SECRET is not set: the Authorization header Google sends with each notification.',
    );
  }
  return problems;
}

/** Google delivers only to https; the sandbox also accepts plain http on loopback. */
function endpointProblem(endpointUrl: string): string | null {
  const url = new URL(endpointUrl);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'https:' || loopback) return null;
  return `The webhook endpoint ${endpointUrl} is not https: set PUBLIC_URL to the server's public https address.`;
}

function describe(subscriber: Subscriber): string {
  const lines = [
    `Subscriber ${subscriber.name}`,
    `  state:    ${subscriber.state}`,
    `  endpoint: ${subscriber.endpointUri}`,
    `  secret:   ${subscriber.secretSet ? 'set' : 'not set'}`,
  ];
  if (subscriber.subscriberConfigs.length === 0) lines.push('  types:    none');
  for (const config of subscriber.subscriberConfigs) {
    lines.push(
      `  types (${config.subscriptionCreatePolicy}, ${config.dataTypes.length}): ${config.dataTypes.join(', ')}`,
    );
  }
  if (subscriber.createTime) lines.push(`  created:  ${subscriber.createTime}`);
  if (subscriber.updateTime) lines.push(`  updated:  ${subscriber.updateTime}`);
  return lines.join('\n');
}

/** How the registered subscriber differs from what the configuration asks for. */
function drift(subscriber: Subscriber, config: AppConfig): string[] {
  const out: string[] = [];
  const endpoint = config.googleHealth.webhooks.endpointUrl;
  if (subscriber.endpointUri !== endpoint) {
    out.push(`its endpoint is not this server's (${endpoint})`);
  }
  const wanted = subscribedDataTypes().join(',');
  const has = subscriber.subscriberConfigs
    .filter((c) => c.subscriptionCreatePolicy === 'AUTOMATIC')
    .flatMap((c) => c.dataTypes)
    .sort()
    .join(',');
  if (has !== wanted) out.push('its data types are not the ones the research types read');
  return out;
}

async function openClient(config: AppConfig): Promise<SubscribersClient> {
  const { webhooks, apiUrl } = config.googleHealth;
  // configProblems has been checked: both are set.
  const key = await loadServiceAccountKey(
    webhooks.serviceAccount as NonNullable<typeof webhooks.serviceAccount>,
  );
  return createSubscribersClient({
    apiUrl,
    projectNumber: webhooks.projectNumber as string,
    key,
  });
}

/**
 * Registers the subscriber, or brings it up to date, without a word on the console: for the
 * local defaults, where the server registers itself with the sandbox at start. Answers whether
 * it was created (false: updated).
 */
export async function ensureSubscriber(
  config: AppConfig,
  id = DEFAULT_SUBSCRIBER_ID,
): Promise<'created' | 'updated'> {
  const problems = configProblems(config);
  if (problems.length > 0) throw new Error(problems.join(' '));
  const { webhooks } = config.googleHealth;
  const client = await openClient(config);
  const fields = {
    endpointUri: webhooks.endpointUrl,
    secret: webhooks.secret as string,
    subscriberConfigs: wantedConfigs(),
  };
  if (await client.get(id)) {
    await client.patch(id, fields);
    return 'updated';
  }
  await client.create(id, fields);
  return 'created';
}

export async function healthSubscriberCommand(
  action: string | undefined,
  options: { id?: string | undefined; force?: boolean | undefined },
  config: AppConfig,
): Promise<number> {
  if (action !== 'create' && action !== 'show' && action !== 'delete') {
    console.error(`Unknown action "${action ?? ''}": use create, show or delete.\n`);
    console.error(HEALTH_SUBSCRIBER_USAGE);
    return 1;
  }
  const id = options.id ?? DEFAULT_SUBSCRIBER_ID;
  if (!SUBSCRIBER_ID.test(id)) {
    console.error(
      '--id: 4 to 36 characters: a lower-case letter, then lower-case letters, digits or hyphens, not ending with a hyphen.',
    );
    return 1;
  }
  const problems = configProblems(config);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    return 1;
  }
  const { webhooks } = config.googleHealth;
  const name = `projects/${webhooks.projectNumber}/subscribers/${id}`;
  const endpoint = action === 'create' ? endpointProblem(webhooks.endpointUrl) : null;
  if (endpoint) {
    console.error(endpoint);
    return 1;
  }
  try {
    const client = await openClient(config);
    if (action === 'show') {
      const found = await client.get(id);
      if (!found) {
        const others = (await client.list()).map((s) => s.name);
        console.log(
          `No subscriber ${name}: Google sends this server no change notifications. Register it with: npm run admin -- health-subscriber create`,
        );
        if (others.length) console.log(`The project has other subscribers: ${others.join(', ')}`);
        return 0;
      }
      console.log(describe(found));
      const differences = drift(found, config);
      if (differences.length) {
        console.log(
          `Note: ${differences.join('; ')}. Run health-subscriber create to bring it up to date.`,
        );
      }
      return 0;
    }
    if (action === 'delete') {
      if (!options.force) {
        console.error(
          `Deleting ${name} stops Google's change notifications to this server. Run again with --force to delete it.`,
        );
        return 1;
      }
      const found = await client.get(id);
      if (!found) {
        console.error(`No subscriber ${name}: nothing to delete.`);
        return 1;
      }
      await client.delete(id);
      console.log(`Deleted subscriber ${name}.`);
      return 0;
    }
    const fields = {
      endpointUri: webhooks.endpointUrl,
      secret: webhooks.secret as string,
      subscriberConfigs: wantedConfigs(),
    };
    console.log(
      `Google first checks ${webhooks.endpointUrl}: a POST with the secret must get 201, one without it 401.`,
    );
    const existing = await client.get(id);
    const subscriber = existing ? await client.patch(id, fields) : await client.create(id, fields);
    console.log(`${existing ? 'Updated' : 'Registered'} subscriber ${subscriber.name}.`);
    console.log(describe(subscriber));
    return 0;
  } catch (error) {
    if (error instanceof SubscriberApiError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}
