import type { LeadDispute, PublisherLeadDetail } from '@contract/lead-detail.ts';
import { SimpleGrid, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import {
  BackLink,
  DisputeThread,
  DurationVsBuffer,
  Field,
  LeadHeader,
  LeadHistory,
  LeadTimeline,
  RecordingPlayer,
  Section,
  StatusReason,
  useLeadDetailGate,
} from './lead-detail-parts.tsx';

/** What both areas' lead details carry (the admin's adds the publisher, revenue, tags…). */
type LeadDetailBase = Omit<PublisherLeadDetail, 'can_dispute'>;

/** The parts of the screen that differ between the areas, built from the loaded lead. */
export type LeadDetailParts = {
  /** Under the offer's title (the admin's link to the publisher). */
  subtitle?: ReactNode;
  /** Caller and tracking number as this area may show them, then its own fields. */
  caller: ReactNode;
  trackingNumber: ReactNode;
  moreCallFields?: ReactNode;
  /** The third card beside Call and Duration: its title and content. */
  moneyTitle: string;
  money: ReactNode;
  /** Beside the recording's title (the admin's upload button). */
  recordingActions?: ReactNode;
  /** The disputes card: its title, whether it shows, the answer box under an open dispute. */
  disputes: {
    title: string;
    show: boolean;
    openFooter: (dispute: LeadDispute) => ReactNode;
    /** Under the threads (the publisher's form that opens a dispute). */
    after?: ReactNode;
  };
  /** Cards between Timeline and History. */
  moreSections?: ReactNode;
};

/** The lead of a `…/leads/:id` route, read with the area's own lead query. */
export function useRouteLead<L>(useLead: (id: string) => UseQueryResult<L>): UseQueryResult<L> {
  const { id = '' } = useParams();
  return useLead(id);
}

/**
 * A lead's detail screen (admin's and publisher's): the way back, header and status reason,
 * the Call, Duration and money cards, the recording, disputes, timeline and history; until the
 * lead has loaded, its skeleton, "Lead not found" or error.
 */
export function LeadDetailScreen<L extends LeadDetailBase>({
  query,
  back: backTo,
  parts,
}: {
  query: UseQueryResult<L>;
  back: { to: string; label: string };
  parts: (lead: L) => LeadDetailParts;
}) {
  const back = <BackLink to={backTo.to} label={backTo.label} />;
  const gate = useLeadDetailGate(query, back);
  if (gate || !query.data) return gate;

  const l = query.data;
  const p = parts(l);
  return (
    <Stack gap="lg">
      {back}
      <LeadHeader
        offerTitle={l.offer_title}
        status={l.status}
        timestamp={l.timestamp}
        subtitle={p.subtitle}
      />
      <StatusReason status={l.status} reason={l.status_reason} />

      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Section title="Call">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Field label="Caller">{p.caller}</Field>
            <Field label="Tracking number">{p.trackingNumber}</Field>
            <Field label="State / ZIP">{[l.state, l.zip].filter(Boolean).join(' ') || null}</Field>
            <Field label="Last event">{l.last_event}</Field>
            {p.moreCallFields}
          </SimpleGrid>
        </Section>
        <Section title="Duration">
          <DurationVsBuffer
            seconds={l.duration_seconds}
            minutes={l.call_duration}
            buffer={l.billable_buffer_seconds}
          />
        </Section>
        <Section title={p.moneyTitle}>{p.money}</Section>
      </SimpleGrid>

      <Section title="Recording" actions={p.recordingActions}>
        <RecordingPlayer recording={l.recording} />
      </Section>

      {p.disputes.show ? (
        <Section title={p.disputes.title}>
          <Stack gap="lg">
            {l.disputes.map((d) => (
              <DisputeThread
                key={d.id}
                dispute={d}
                footer={d.status === 'open' ? p.disputes.openFooter(d) : null}
              />
            ))}
            {p.disputes.after}
          </Stack>
        </Section>
      ) : null}

      <Section title="Timeline">
        <LeadTimeline items={l.timeline} />
      </Section>

      {p.moreSections}

      <Section title="History">
        <LeadHistory items={l.history} />
      </Section>
    </Stack>
  );
}
