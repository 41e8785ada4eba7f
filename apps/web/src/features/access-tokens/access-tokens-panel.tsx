import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import {
  ACCESS_TOKEN_PANEL_TEXTS,
  type AccessToken,
  type AccessTokenState,
  type CreateAccessTokenInput,
  formatDateShort,
} from '@research/contracts';
import { useId, useState } from 'react';
import type { Notify } from '../../components/notification-modal';
import { type ResponsiveColumn, ResponsiveTable } from '../../components/responsive-table';
import { useAccessTokens, useCreateAccessToken, useRevokeAccessToken } from './api/access-tokens';
import { CreateTokenDialog, RevokeDialog, SecretDialog } from './components/token-dialogs';

const T = ACCESS_TOKEN_PANEL_TEXTS;

const STATE_COLOR: Record<AccessTokenState, 'success' | 'default' | 'warning'> = {
  active: 'success',
  expired: 'warning',
  revoked: 'default',
};

export interface AccessTokensPanelProps {
  studyId: string;
  notify: Notify;
}

function columns(everyone: boolean, onRevoke: (token: AccessToken) => void) {
  const list: ResponsiveColumn<AccessToken>[] = [
    { label: T.columns.name, render: (token) => token.name, card: 'title' },
    ...(everyone
      ? [
          {
            label: T.columns.owner,
            render: (token: AccessToken) => `${token.ownerName} (${token.ownerEmail})`,
          },
        ]
      : []),
    {
      label: T.columns.token,
      render: (token) => `${token.prefix}…`,
      cellSx: { fontFamily: 'monospace' },
    },
    { label: T.columns.created, render: (token) => formatDateShort(token.createdAt) },
    { label: T.columns.expires, render: (token) => formatDateShort(token.expiresAt) },
    {
      label: T.columns.lastUsed,
      render: (token) =>
        token.lastUsedAt
          ? [
              formatDateShort(token.lastUsedAt),
              token.lastUsedIp && T.lastUsedFrom(token.lastUsedIp),
            ]
              .filter(Boolean)
              .join(' ')
          : T.neverUsed,
    },
    {
      label: T.columns.state,
      card: 'badge',
      render: (token) => (
        <Chip size="small" color={STATE_COLOR[token.state]} label={T.states[token.state]} />
      ),
    },
    {
      label: T.columns.actions,
      card: 'actions',
      align: 'right',
      render: (token) =>
        token.state === 'active' ? (
          <Button
            size="small"
            color="error"
            onClick={() => onRevoke(token)}
            aria-label={T.revokeLabel(token.name)}
          >
            {T.revoke}
          </Button>
        ) : null,
    },
  ];
  return list;
}

/**
 * The study's personal access tokens: the caller's own (the owner: every member's, with whose
 * each is), a new one's secret shown once, and revocation after a confirmation.
 */
export function AccessTokensPanel({ studyId, notify }: AccessTokensPanelProps) {
  const tokens = useAccessTokens(studyId);
  const create = useCreateAccessToken(studyId);
  const revoke = useRevokeAccessToken(studyId);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  const everyone = tokens.data?.everyone ?? false;
  const headingId = useId();

  const onCreate = (input: CreateAccessTokenInput) =>
    create.mutate(input, {
      onSuccess: (created) => {
        setCreating(false);
        setSecret(created.secret);
      },
    });
  const onRevoke = (token: AccessToken) =>
    revoke.mutate(token.id, {
      onSuccess: () => {
        setRevoking(null);
        notify('success', T.title, T.revoked);
      },
    });
  const openCreate = () => {
    create.reset();
    setCreating(true);
  };
  const openRevoke = (token: AccessToken) => {
    revoke.reset();
    setRevoking(token);
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId}>
      <CardContent>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <Box sx={{ flex: '1 1 20rem' }}>
            <Typography id={headingId} variant="h6" component="h2">
              {T.title}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {T.intro}
            </Typography>
            {everyone && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {T.ownerIntro}
              </Typography>
            )}
          </Box>
          <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
            {T.create}
          </Button>
        </Box>
        <Box sx={{ mt: 2 }}>
          {tokens.isError ? (
            <Alert severity="error">{T.loadFailed}</Alert>
          ) : (
            <ResponsiveTable
              label={T.title}
              columns={columns(everyone, openRevoke)}
              rows={tokens.data?.tokens ?? []}
              rowKey={(token) => token.id}
              empty={tokens.isLoading ? null : T.empty}
              size="small"
              dense
            />
          )}
        </Box>
      </CardContent>
      <CreateTokenDialog
        open={creating}
        busy={create.isPending}
        error={create.error?.message ?? null}
        onClose={() => setCreating(false)}
        onCreate={onCreate}
      />
      <SecretDialog secret={secret} studyId={studyId} onClose={() => setSecret(null)} />
      <RevokeDialog
        token={revoking}
        busy={revoke.isPending}
        error={revoke.error?.message ?? null}
        onClose={() => setRevoking(null)}
        onConfirm={onRevoke}
      />
    </Card>
  );
}
