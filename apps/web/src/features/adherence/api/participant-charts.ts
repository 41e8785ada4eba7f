import {
  adherenceApi,
  type HeartRateDayResponse,
  type ParticipantChartsResponse,
  participantsApi,
  studiesApi,
} from '@research/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { adherenceKeys } from './keys';

/** A participant's days over [from, to]: steps, resting heart rate, sleep, wear. */
export function useParticipantCharts(participantId: string, from: string, to: string) {
  return useQuery({
    queryKey: adherenceKeys.charts(participantId, from, to),
    queryFn: ({ signal }): Promise<ParticipantChartsResponse> =>
      callOperation(
        adherenceApi.getParticipantCharts,
        { params: { participantId }, query: { from, to } },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** One day's heart rate, downsampled by the server; null: no day chosen yet. */
export function useHeartRateDay(participantId: string, date: string | null) {
  return useQuery({
    queryKey: adherenceKeys.heartRate(participantId, date ?? ''),
    queryFn: ({ signal }): Promise<HeartRateDayResponse> =>
      callOperation(
        adherenceApi.getHeartRateDay,
        { params: { participantId }, query: { date: date ?? '' } },
        { signal },
      ),
    enabled: date !== null,
  });
}

/** The participant's name and id for the page's heading. */
export function useParticipantHeading(participantId: string) {
  return useQuery({
    queryKey: adherenceKeys.info(participantId),
    queryFn: async ({ signal }) =>
      (
        await callOperation(
          participantsApi.getParticipantInfo,
          { params: { participantId } },
          { signal },
        )
      ).participant,
  });
}

/** The study, for its name and first day (the "whole study" range). */
export function useChartsStudy(studyId: string) {
  return useQuery({
    queryKey: adherenceKeys.study(studyId),
    queryFn: async ({ signal }) =>
      (await callOperation(studiesApi.getStudy, { params: { id: studyId } }, { signal })).study,
  });
}
