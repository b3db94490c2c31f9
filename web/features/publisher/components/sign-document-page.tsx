import type { SignatureDocumentDetail } from '@contract/documents.ts';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconCircleCheck, IconDownload, IconSignature } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import { QueryError } from '@/components/lists/query-error.tsx';
import {
  downloadSignedPdf,
  useSignatureDocument,
  useSignDocument,
} from '@/components/signatures/signatures-api.ts';
import { StatusBadge } from '@/components/status-badge.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { TitledCard } from './titled-card.tsx';

const kindName = (d: SignatureDocumentDetail) =>
  d.kind === 'io' ? 'Insertion order' : 'Agreement';

/** The signed copy's download, with its failure as a toast. */
function DownloadSigned({ doc }: { doc: SignatureDocumentDetail }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      leftSection={<IconDownload size={16} />}
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadSignedPdf(doc.id, doc.title);
        } catch (err) {
          failedToast('Download Failed')(err as Error);
        } finally {
          setBusy(false);
        }
      }}
    >
      Download signed PDF
    </Button>
  );
}

/** The name, the consent and the Sign button, sending the hash of the document shown. */
function SignForm({ doc }: { doc: SignatureDocumentDetail }) {
  const sign = useSignDocument(doc.id);
  const [name, setName] = useState('');
  const [consent, setConsent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (name.trim().length < 2) {
      setError('Please type your full legal name.');
      return;
    }
    setError(null);
    sign.mutate(
      { full_name: name.trim(), consent: true, document_sha256: doc.document_sha256 },
      {
        onSuccess: () =>
          toast({ title: 'Document Signed', description: `You signed "${doc.title}".` }),
        onError: failedToast('Signing Failed'),
      },
    );
  };
  return (
    <TitledCard id="sign-title" title="Sign this document">
      <TextInput
        label="Full legal name"
        description="Type your name as it appears on legal documents: it is your signature."
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={error}
        maxLength={200}
        autoComplete="name"
        required
      />
      <Checkbox
        checked={consent}
        onChange={(e) => setConsent(e.currentTarget.checked)}
        label={doc.consent_text}
      />
      <Group>
        <Button
          leftSection={<IconSignature size={16} />}
          disabled={!consent}
          loading={sign.isPending}
          onClick={submit}
        >
          Sign
        </Button>
      </Group>
    </TitledCard>
  );
}

/**
 * /dashboard/documents/:id: the publisher reads a document sent for signature in the page (the
 * PDF in a viewer), types their full legal name, ticks the consent and signs; once signed, the
 * signature and the sealed PDF's download.
 */
export function SignDocumentPage() {
  const { id = '' } = useParams();
  const query = useSignatureDocument(id);
  const doc = query.data;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={publisherPaths.documents} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> My Documents
        </Group>
      </Anchor>
      {query.isError && !doc ? (
        <QueryError title="Error fetching document" query={query} />
      ) : !doc ? (
        <Skeleton height={400} radius="md" role="status" aria-label="Loading document" />
      ) : (
        <>
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <div>
              <Title order={1}>{doc.title}</Title>
              <Text c="dimmed" size="sm">
                {kindName(doc)}, version {doc.version}
                {doc.offer_title ? ` · ${doc.offer_title}` : ''} · sent{' '}
                {formatDateTime(doc.sent_at)}
              </Text>
            </div>
            <StatusBadge status={doc.status} />
          </Group>
          {doc.status === 'superseded' ? (
            <Alert color="gray" title="A newer version was sent">
              This version was replaced. Go back to My Documents to read and sign the new one.
            </Alert>
          ) : null}
          {doc.signature ? (
            <Alert color="green" icon={<IconCircleCheck />} title="Signed">
              <Stack gap="xs">
                <Text size="sm">
                  Signed by {doc.signature.full_name} on {formatDateTime(doc.signature.signed_at)}
                  {doc.signature.expires_at
                    ? `; to be signed again by ${formatDateTime(doc.signature.expires_at)}`
                    : ''}
                  .
                </Text>
                <Group>
                  <DownloadSigned doc={doc} />
                </Group>
              </Stack>
            </Alert>
          ) : null}
          <Card withBorder radius="md" padding={0} style={{ overflow: 'hidden' }}>
            {/* An iframe (the CSP allows same-origin frames, no <object>): the browser's viewer. */}
            <iframe
              src={doc.file_url}
              title={`${doc.title} (PDF)`}
              style={{ width: '100%', height: '70vh', display: 'block', border: 0 }}
            />
          </Card>
          <Text size="sm">
            Cannot see the document?{' '}
            <Anchor href={doc.file_url} target="_blank" rel="noopener">
              Open it in a new tab
            </Anchor>{' '}
            to read it before signing.
          </Text>
          {doc.can_sign ? <SignForm doc={doc} /> : null}
        </>
      )}
    </Stack>
  );
}
