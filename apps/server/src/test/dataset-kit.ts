import type { DataType } from '@research/contracts';
import type { Sandbox } from '@research/sandbox';
import { connect } from '../../../sandbox/src/test/health-flow.js';
import type { AppConfig } from '../config.js';
import type { RawPage } from '../modules/dataset/index.js';
import { callsFor } from '../modules/extraction/plan.js';
import { createProviderCall } from '../modules/extraction/provider-call.js';

/**
 * A participant's day of one type as the sandbox's Google Health answers it, page by page and
 * byte for byte, fetched with the extraction's own calls (the webhook pipeline will do the same).
 */
export async function sandboxAccount(
  sandbox: Sandbox,
  config: AppConfig,
  email: string,
  /** The zone whose local midnights cut the minute roll-ups' days (the partition's zone). */
  timeZone = 'America/New_York',
) {
  const { access_token, scope } = await connect(sandbox, email);
  const granted = scope.split(' ');
  const exchange = createProviderCall({
    endpoints: config.googleHealth,
    fetch,
    beforeEach: async () => {},
  });
  return async function day(dataType: DataType, date: string): Promise<RawPage[]> {
    const pages: RawPage[] = [];
    for (const call of callsFor(dataType, date, date, granted)) {
      let pageToken: string | null = null;
      do {
        const { bytes, body } = await exchange(
          access_token,
          { ...call, timeZone },
          pageToken,
          null,
        );
        pages.push({ call: call.spec.key, body: bytes });
        pageToken = (body as { nextPageToken?: string }).nextPageToken || null;
      } while (pageToken);
    }
    return pages;
  };
}
