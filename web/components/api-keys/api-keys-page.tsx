import type { ApiKey, CreatedApiKey } from '@contract/api-keys.ts';
import type { Role } from '@contract/roles.ts';
import { Badge, Button, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { CodeBadges } from '@/components/code-badges.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { CopyField } from '@/components/copy-field.tsx';
import { CopyOnceModal } from '@/components/copy-once-modal.tsx';
import { KeyName } from '@/components/key-name.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { QueryCard } from '@/components/query-card.tsx';
import { ScrollTable } from '@/components/scroll-table.tsx';
import { useConfirmedAction } from '@/components/use-confirmed-action.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useMe } from '@/lib/me.ts';
import { useApiKeys, useRevokeApiKey } from './api-keys-api.ts';
import { CreateApiKeyModal } from './create-api-key-modal.tsx';

const expired = (k: ApiKey) => k.expires_at !== null && Date.parse(k.expires_at) <= Date.now();

/** The new key, once: copy it now, it cannot be read again. */
function KeyOnceModal({
  created,
  onClose,
}: {
  created: CreatedApiKey | null;
  onClose: () => void;
}) {
  return (
    <CopyOnceModal
      shown={created}
      onClose={onClose}
      title={(c) => `Key ${c.name}`}
      warning={() =>
        'It will not be shown again. Keep it like a password: anyone who has it can use your account within its scopes. If it is lost, revoke it and create a new one.'
      }
      doneLabel="I have copied the key"
    >
      {(c) => (
        <>
          <CopyField label="API key" value={c.key} copyLabel="Copy API key" />
          <Text size="sm" c="dimmed">
            Send it as <code>Authorization: Bearer {c.prefix}…</code> to /api/v1.
          </Text>
        </>
      )}
    </CopyOnceModal>
  );
}

function KeyRow({ k, onRevoke }: { k: ApiKey; onRevoke: (k: ApiKey) => void }) {
  return (
    <Table.Tr>
      <Table.Td>
        <KeyName name={k.name} prefix={k.prefix} />
      </Table.Td>
      <Table.Td>
        <CodeBadges names={k.scopes} />
      </Table.Td>
      <Table.Td>{formatDateTime(k.created_at)}</Table.Td>
      <Table.Td>
        {k.expires_at ? formatDateTime(k.expires_at) : 'Never'}
        {expired(k) ? (
          <Badge ml="xs" color="red" variant="light">
            Expired
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td>{k.last_used_at ? formatDateTime(k.last_used_at) : 'Never'}</Table.Td>
      <Table.Td ta="right">
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          onClick={() => onRevoke(k)}
          aria-label={`Revoke ${k.name}`}
        >
          Revoke
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/** Profile → API keys in each area, for the signed-in user's role (read by the area's guard). */
export function ApiKeysPage() {
  const { user } = useAuth();
  const { data: me } = useMe(user?.id);
  return me ? <ApiKeysScreen userRole={me.role} /> : null;
}

/**
 * The user's keys (name, first characters, scopes, dates), Create (the scopes the role may
 * give; the key shown once) and Revoke (after a confirmation).
 */
export function ApiKeysScreen({ userRole }: { userRole: Role }) {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking, revokeDialog] = useConfirmedAction(
    (k: ApiKey) => revoke.mutateAsync(k.id),
    (k) => ({ title: 'Key Revoked', description: `${k.name} no longer works.` }),
    'Failed to revoke key',
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title="API Keys"
        description="Keys for your own scripts: send one as a Bearer token to /api/v1. A key acts as you, limited to its scopes."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create API Key
          </Button>
        }
      />
      <QueryCard query={keys} errorTitle="API keys could not be loaded">
        {(data) => (
          <ScrollTable
            count={data.items.length}
            empty="No API keys yet. Create one to read your data from a script."
            minWidth={760}
            heads={[
              'Name',
              'Scopes',
              'Created',
              'Expires',
              'Last used',
              { label: '', right: true },
            ]}
          >
            {data.items.map((k) => (
              <KeyRow key={k.id} k={k} onRevoke={setRevoking} />
            ))}
          </ScrollTable>
        )}
      </QueryCard>
      <CreateApiKeyModal
        userRole={userRole}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <KeyOnceModal created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog {...revokeDialog} title="Revoke API key?" confirmLabel="Revoke Key">
        {revoking
          ? `${revoking.name} (${revoking.prefix}…) stops working at once; scripts that use it will be refused. This cannot be undone.`
          : null}
      </ConfirmDialog>
    </Stack>
  );
}
