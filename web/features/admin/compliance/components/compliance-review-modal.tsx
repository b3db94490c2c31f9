import type { ComplianceSubmission } from '@contract/admin.ts';
import { applicationReasons, describeReason } from '@contract/review-reasons.ts';
import { Divider, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RejectedBecause, ReviewField, ReviewModal } from '@/components/forms/review-modal.tsx';
import { showFailure } from '@/components/forms/show-failure.ts';
import { ReviewDecisionRow } from '@/components/review/application-decision-buttons.tsx';
import { DocumentFileView, MediaFileView } from '@/components/review/compliance-file-views.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import {
  complianceKey,
  getFreshSubmission,
} from '@/features/admin/compliance/api/list-compliance.ts';
import { formatDateTime } from '@/lib/format.ts';
import { FILE_MESSAGES } from './file-url.ts';

/** Signed URLs live 3600 s; older than this, the review asks for fresh ones before playing. */
const STALE_AFTER_MS = 50 * 60 * 1000;

type ComplianceReviewModalProps = {
  /** The submission to review, or null when closed. */
  submission: ComplianceSubmission | null;
  /** When the list holding `submission` was fetched (its URLs' age). */
  fetchedAt: number;
  onClose: () => void;
};

/**
 * Reviews one compliance submission: plays each mp3/mp4 in the page, opens the document, and
 * approves or rejects the application behind it.
 */
export function ComplianceReviewModal({
  submission,
  fetchedAt,
  onClose,
}: ComplianceReviewModalProps) {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState<ComplianceSubmission | null>(submission);
  const [generation, setGeneration] = useState(0);
  const [reloading, setReloading] = useState(false);

  async function reloadLinks(target: ComplianceSubmission) {
    setReloading(true);
    try {
      const fresh = await getFreshSubmission(target);
      setCurrent(fresh);
      setGeneration((g) => g + 1);
    } catch (err) {
      showFailure(FILE_MESSAGES.urlFailed, err);
    } finally {
      setReloading(false);
    }
  }

  // A newly opened submission starts from the list's copy; links about to expire are renewed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a different submission resets the view
  useEffect(() => {
    setCurrent(submission);
    setGeneration((g) => g + 1);
    if (submission && Date.now() - fetchedAt > STALE_AFTER_MS) void reloadLinks(submission);
  }, [submission?.id]);

  const s = current;
  return (
    <ReviewModal
      opened={submission !== null}
      onClose={onClose}
      title="Review compliance submission"
    >
      {s ? (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <ReviewField label="Publisher">
              {s.publisher_name || '—'}
              <Text size="xs" c="dimmed">
                {s.publisher_email}
              </Text>
            </ReviewField>
            <ReviewField label="Offer">{s.offer_title}</ReviewField>
            <ReviewField label="Submitted">{formatDateTime(s.created_at)}</ReviewField>
            <ReviewField label="Application status">
              <StatusBadge status={s.application_status} subject="application" />
            </ReviewField>
          </SimpleGrid>
          <Divider />
          <Title order={2} fz="md">
            Media files ({s.media.length})
          </Title>
          {s.media.length === 0 ? (
            <Text size="sm" c="dimmed">
              {FILE_MESSAGES.missing}
            </Text>
          ) : (
            <Stack gap="sm">
              {s.media.map((file, i) => (
                <MediaFileView
                  // biome-ignore lint/suspicious/noArrayIndexKey: files have no id; a reload remounts all
                  key={`${generation}-${i}`}
                  file={file}
                  index={i}
                  onReload={() => void reloadLinks(s)}
                  reloading={reloading}
                />
              ))}
            </Stack>
          )}
          <Title order={2} fz="md">
            Document
          </Title>
          <DocumentFileView key={generation} file={s.document} />
          {s.decision === 'rejected' && s.reason ? (
            <RejectedBecause title="This submission was rejected because">
              {describeReason(applicationReasons, s.reason, s.note)}
            </RejectedBecause>
          ) : null}
          {s.superseded ? (
            <Text size="sm" c="dimmed">
              The publisher submitted newer files for this application: decide it on the newest
              submission.
            </Text>
          ) : null}
          {s.application_status === 'pending' && !s.superseded ? (
            <ReviewDecisionRow
              application={{
                id: s.application_id,
                offer_title: s.offer_title,
                publisher_name: s.publisher_name,
                publisher_email: s.publisher_email,
              }}
              onDecided={(status) => {
                setCurrent({ ...s, application_status: status });
                void queryClient.invalidateQueries({ queryKey: complianceKey });
              }}
            />
          ) : null}
        </Stack>
      ) : null}
    </ReviewModal>
  );
}
