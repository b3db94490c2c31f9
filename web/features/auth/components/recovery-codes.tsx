import { Alert, Button, CopyButton, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { loadAuthClient } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';

/**
 * A new set of 10 recovery codes (POST /auth/v1/factors/recovery-codes, issue 34): the old set
 * stops working. Needs a session that passed two-factor sign-in.
 */
export async function requestRecoveryCodes(): Promise<string[]> {
  const client = await loadAuthClient();
  const { data } = await client.getSession();
  const res = await fetch(`${window.location.origin}/auth/v1/factors/recovery-codes`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${data.session?.access_token ?? ''}`,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    body: '{}',
  });
  const body = (await res.json().catch(() => ({}))) as { codes?: string[]; message?: string };
  if (!res.ok || !Array.isArray(body.codes)) {
    throw new Error(body.message || 'The recovery codes could not be made. Please try again.');
  }
  return body.codes;
}

/** The codes as a text file: one a line, with what they are. */
function codesText(codes: string[], company: string | undefined): string {
  const where = company ? ` for ${company}` : '';
  return [
    `Two-factor recovery codes${where}`,
    'Each code signs you in once, instead of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'recovery-codes.txt';
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/** The codes, shown this once, with Copy and Download. */
export function RecoveryCodesPanel({ codes, company }: { codes: string[]; company?: string }) {
  const text = codesText(codes, company);
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" title="Save your recovery codes now">
        If you lose the phone with your authenticator app, each of these codes signs you in once
        instead of an app code. They are shown only this once: copy or download them and keep them
        somewhere safe.
      </Alert>
      <SimpleGrid
        cols={2}
        spacing="xs"
        verticalSpacing={4}
        component="ul"
        aria-label="Recovery codes"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {codes.map((c) => (
          <Text component="li" key={c} ff="monospace" fz="md" ta="center">
            {c}
          </Text>
        ))}
      </SimpleGrid>
      <Group gap="xs" grow>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="light" leftSection={<IconCopy size={16} />} onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} />}
          onClick={() => download(text)}
        >
          Download
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Profile → Two-factor sign-in → "New recovery codes": asks first (the old codes stop working),
 * then shows the new set once.
 */
export function NewRecoveryCodesButton({ company }: { company?: string }) {
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  const make = async () => {
    setPending(true);
    try {
      setCodes(await requestRecoveryCodes());
      setAsking(false);
    } catch (err) {
      toast({
        title: 'No new codes',
        description: err instanceof Error ? err.message : String(err),
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button variant="default" onClick={() => setAsking(true)}>
        New recovery codes
      </Button>
      <ConfirmDialog
        opened={asking}
        title="Replace your recovery codes?"
        confirmLabel="Make new codes"
        pending={pending}
        onConfirm={() => void make()}
        onCancel={() => setAsking(false)}
      >
        You get 10 new codes; the codes you have now stop working at once.
      </ConfirmDialog>
      <Modal
        opened={codes !== null}
        onClose={() => setCodes(null)}
        title="Your new recovery codes"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {codes ? (
          <Stack gap="md">
            <RecoveryCodesPanel codes={codes} company={company} />
            <Button onClick={() => setCodes(null)}>I saved them</Button>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
