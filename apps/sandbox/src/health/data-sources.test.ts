import { describe, expect, it } from 'vitest';
import { parseInstant } from './civil.js';
import { healthIdentity } from './data-generator.js';
import { findType, type TypeSpec } from './data-types.js';
import { type ListCaller, listPoints } from './resource-server.js';

// A phone beside the tracker (accounts with `+phone`): listed by the families that take it, left
// out of `google-wearables` (Fitbit trackers and Pixel Watch only), as Google does.

const EMAIL = 'two.devices+phone@gmail.test';
const caller: ListCaller = {
  email: EMAIL,
  healthUserId: healthIdentity(EMAIL).healthUserId,
  now: parseInstant('2026-11-21T12:00:00Z') ?? 0,
};
const typeOf = (id: string): TypeSpec => {
  const type = findType(id);
  if (!type) throw new Error(`${id} missing`);
  return type;
};

interface Listed {
  dataPoints?: {
    dataSource: { device?: { displayName?: string; formFactor?: string }; platform?: string };
    steps?: { count: string };
  }[];
}

function list(typeId: string, filter: string, family?: string, email = EMAIL): Listed {
  const query = new URLSearchParams({ filter, pageSize: '10000' });
  if (family) query.set('dataSourceFamily', `users/me/dataSourceFamilies/${family}`);
  const answer = listPoints({ ...caller, email }, typeOf(typeId), query, false, false, {
    generic: true,
  });
  return (typeof answer === 'string' ? JSON.parse(answer) : answer) as Listed;
}
const devices = (listed: Listed) =>
  [...new Set(listed.dataPoints?.map((p) => p.dataSource.device?.displayName))].sort();
const stepsOf = (listed: Listed) =>
  listed.dataPoints?.reduce((sum, p) => sum + Number(p.steps?.count ?? 0), 0) ?? 0;

describe('data sources', () => {
  const steps =
    'steps.interval.civil_start_time >= "2026-11-20" AND steps.interval.civil_start_time < "2026-11-21"';
  const heart =
    'heart_rate.sample_time.civil_time >= "2026-11-20T10:00:00" AND heart_rate.sample_time.civil_time < "2026-11-20T11:00:00"';

  it('lists the phone’s points for every source and first-party sources, not for the wearables', () => {
    for (const [typeId, filter] of [
      ['steps', steps],
      ['heart-rate', heart],
    ] as const) {
      expect(devices(list(typeId, filter)), typeId).toEqual(['Charge 6', 'Pixel 9']);
      expect(devices(list(typeId, filter, 'all-sources')), typeId).toEqual(['Charge 6', 'Pixel 9']);
      expect(devices(list(typeId, filter, 'google-sources')), typeId).toEqual([
        'Charge 6',
        'Pixel 9',
      ]);
      expect(devices(list(typeId, filter, 'google-wearables')), typeId).toEqual(['Charge 6']);
      expect(list(typeId, filter, 'self-sources'), typeId).toEqual({});
    }
    // The phone's steps overlap the tracker's: every source counts more than the wearables.
    expect(stepsOf(list('steps', steps))).toBeGreaterThan(
      stepsOf(list('steps', steps, 'google-wearables')),
    );
    const phone = list('steps', steps).dataPoints?.find(
      (p) => p.dataSource.device?.displayName === 'Pixel 9',
    );
    expect(phone?.dataSource).toMatchObject({
      platform: 'HEALTH_CONNECT',
      device: { formFactor: 'PHONE' },
    });
  });

  it('gives an account without a phone the tracker’s points whatever the family', () => {
    const single = 'one.device@gmail.test';
    const all = list('steps', steps, undefined, single);
    expect(devices(all)).toEqual(['Charge 6']);
    expect(list('steps', steps, 'google-wearables', single)).toEqual(all);
  });
});
