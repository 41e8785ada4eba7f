import { healthNotificationsApi } from '@research/contracts';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/**
 * The master's status of Google Health's change notifications. Its own key (not under 'admin'):
 * a review action has nothing to change here, so it does not reload it.
 */
export const notificationStatusKey = ['health-notifications', 'status'] as const;

export function useNotificationStatus() {
  return useQuery({
    queryKey: notificationStatusKey,
    queryFn: ({ signal }) =>
      callOperation(healthNotificationsApi.getNotificationStatus, {}, { signal }).then(
        (answer) => answer.notifications,
      ),
    // The server keeps Google's answer for 30 s: asking more often shows nothing new.
    staleTime: 30_000,
  });
}
