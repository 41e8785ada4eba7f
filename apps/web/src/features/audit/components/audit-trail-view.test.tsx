import type { AuditEvent } from '@research/contracts';
import { AUDIT_KIND_LABELS, AUDIT_STUDY_KINDS, AUDIT_TEXTS as T } from '@research/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRequest, installFakeApi } from '../../../test/fake-api';
import { AuditTrailView } from './audit-trail-view';

const event = (n: number, over: Partial<AuditEvent> = {}): AuditEvent => ({
  id: `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  at: `2026-11-${String(20 - (n % 10)).padStart(2, '0')}T10:00:00.000000Z`,
  actor: { kind: 'user', id: 'u-1', name: 'Ada Lovelace', email: 'ada@example.test' },
  action: 'participant.viewed',
  kind: 'data_access',
  targetType: 'participant',
  targetId: 'P0000000000000001',
  ip: '203.0.113.7',
  details: {},
  ...over,
});

function renderTrail() {
  const pages = (request: FakeRequest) =>
    request.query.get('cursor')
      ? {
          body: {
            success: true,
            events: [event(3, { action: 'study.created', kind: 'settings' })],
            nextCursor: null,
          },
        }
      : {
          body: {
            success: true,
            events: [
              event(1),
              event(2, {
                actor: { kind: 'participant', id: 'P00000000000000AA', name: null, email: null },
                action: 'participant.enrolled',
                kind: 'participant',
                ip: null,
              }),
            ],
            nextCursor: 'next-page',
          },
        };
  const { calls } = installFakeApi({ 'GET /api/studies/s-1/audit': pages });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AuditTrailView
        scope={{ studyId: 's-1' }}
        kinds={AUDIT_STUDY_KINDS}
        people={[{ id: 'u-1', label: 'Ada Lovelace <ada@example.test>' }]}
        csvName="study"
      />
    </QueryClientProvider>,
  );
  return { calls };
}

describe('audit trail view', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows who did what, when and from where, then loads the next page from the cursor', async () => {
    const { calls } = renderTrail();
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Viewed a participant’s details')).toBeInTheDocument();
    expect(within(table).getByText('Ada Lovelace <ada@example.test>')).toBeInTheDocument();
    expect(within(table).getByText(T.participant('P00000000000000AA'))).toBeInTheDocument();
    expect(within(table).getByText('203.0.113.7')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: T.loadMore }));
    expect(await within(table).findByText('Created the study')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.loadMore })).not.toBeInTheDocument();
    expect(calls.at(-1)?.query.get('cursor')).toBe('next-page');
  });

  it('sends the chosen person and kind to the server', async () => {
    const { calls } = renderTrail();
    await screen.findByRole('table');
    await userEvent.click(screen.getByLabelText(T.filters.kind));
    await userEvent.click(screen.getByRole('option', { name: AUDIT_KIND_LABELS.consent }));
    await userEvent.click(screen.getByLabelText(T.filters.person));
    await userEvent.click(screen.getByRole('option', { name: 'Ada Lovelace <ada@example.test>' }));
    const last = calls.at(-1);
    expect(last?.query.get('kind')).toBe('consent');
    expect(last?.query.get('actor')).toBe('u-1');
  });
});
