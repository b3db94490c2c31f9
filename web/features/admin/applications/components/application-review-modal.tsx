import type { AdminApplication, ApplicationSubmission } from '@contract/admin.ts';
import { applicationReasons, describeReason } from '@contract/review-reasons.ts';
import { Divider, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { RejectedBecause, ReviewField, ReviewModal } from '@/components/forms/review-modal.tsx';
import { QueryError } from '@/components/lists/query-error.tsx';
import { ReviewDecisionRow } from '@/components/review/application-decision-buttons.tsx';
import { DocumentFileView, MediaFileView } from '@/components/review/compliance-file-views.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import { useApplicationSubmissions } from '@/features/admin/applications/api/get-submissions.ts';
import { formatDateTime } from '@/lib/format.ts';

/** The files of one submission: each recording plays in the page, the document opens. */
function SubmissionFiles({
  submission,
  onReload,
  reloading,
}: {
  submission: ApplicationSubmission;
  onReload: () => void;
  reloading: boolean;
}) {
  return (
    <Stack gap="sm">
      {submission.media.map((file, i) => (
        <MediaFileView
          // biome-ignore lint/suspicious/noArrayIndexKey: files have no id
          key={i}
          file={file}
          index={i}
          onReload={onReload}
          reloading={reloading}
        />
      ))}
      <DocumentFileView file={submission.document} />
    </Stack>
  );
}

/**
 * Opens an application before deciding it (issue 16): its newest compliance submission (the
 * recordings play here, the document opens), every earlier submission with the reason it was
 * rejected for, and Approve / Reject.
 */
export function ApplicationReviewModal({
  application,
  onClose,
}: {
  application: AdminApplication | null;
  onClose: () => void;
}) {
  const query = useApplicationSubmissions(application?.id ?? null);
  const current = query.data?.application ?? application;
  const [latest, ...earlier] = query.data?.submissions ?? [];

  return (
    <ReviewModal opened={application !== null} onClose={onClose} title="Review application">
      {current ? (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <ReviewField label="Publisher">
              {current.publisher_name || current.publisher_email}
              <Text size="xs" c="dimmed">
                {current.publisher_email}
              </Text>
            </ReviewField>
            <ReviewField label="Offer">{current.offer_title}</ReviewField>
            <ReviewField label="Status">
              <StatusBadge status={current.status} subject="application" />
            </ReviewField>
          </SimpleGrid>
          {current.status === 'rejected' && current.reason ? (
            <RejectedBecause title="Rejected because">
              {describeReason(applicationReasons, current.reason, current.note)}
            </RejectedBecause>
          ) : null}
          <Divider />
          {query.isPending ? (
            <Stack gap="sm" aria-busy="true" role="status" aria-label="Loading the submission">
              <Skeleton height={60} />
              <Skeleton height={60} />
            </Stack>
          ) : query.isError ? (
            <QueryError title="Error loading submissions" query={query} />
          ) : !latest ? (
            <Text size="sm" c="dimmed">
              No compliance files were submitted for this application.
            </Text>
          ) : (
            <>
              <Title order={2} fz="md">
                {earlier.length ? 'Latest submission' : 'Submission'} ·{' '}
                {formatDateTime(latest.created_at)}
              </Title>
              <SubmissionFiles
                submission={latest}
                onReload={() => void query.refetch()}
                reloading={query.isFetching}
              />
              {earlier.length ? (
                <>
                  <Title order={2} fz="md" mt="sm">
                    Earlier submissions ({earlier.length})
                  </Title>
                  {earlier.map((s) => (
                    <Paper
                      key={s.id}
                      withBorder
                      p="sm"
                      radius="md"
                      data-testid="earlier-submission"
                    >
                      <Stack gap="xs">
                        <Group justify="space-between" gap="xs">
                          <Text size="sm" fw={600}>
                            {formatDateTime(s.created_at)}
                          </Text>
                          {s.decision ? (
                            <StatusBadge status={s.decision} subject="application" />
                          ) : null}
                        </Group>
                        {s.reason ? (
                          <Text size="sm">
                            {describeReason(applicationReasons, s.reason, s.note)}
                          </Text>
                        ) : null}
                        <SubmissionFiles
                          submission={s}
                          onReload={() => void query.refetch()}
                          reloading={query.isFetching}
                        />
                      </Stack>
                    </Paper>
                  ))}
                </>
              ) : null}
            </>
          )}
          {current.status === 'pending' ? (
            <ReviewDecisionRow application={current} onDecided={onClose} />
          ) : null}
        </Stack>
      ) : null}
    </ReviewModal>
  );
}
