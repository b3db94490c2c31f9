import { CreateTrackingNumber, type TrackingNumber } from '@contract/integrations.ts';
import { TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { FormModal } from '@/components/form-modal.tsx';
import { showFailure } from '@/components/forms/show-failure.ts';
import { OfferSelect, PublisherSelect } from '@/components/search-select.tsx';
import { useCreateTrackingNumber } from '@/features/admin/tracking-numbers/api/create-tracking-number.ts';
import { ApiError } from '@/lib/api-client.ts';
import { toast } from '@/lib/notify.ts';
import { formatPhone } from '@/lib/phone-format.ts';

type Field = 'number' | 'publisher_id' | 'offer_id';

/**
 * "Add number": a tracking number for a publisher on an offer. The server reads the number in
 * any format and keeps it in E.164. Mounted only while open, so each opening starts empty.
 */
export function AddNumberModal({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (n: TrackingNumber) => void;
}) {
  const [number, setNumber] = useState('');
  const [publisherId, setPublisherId] = useState<string | null>(null);
  const [offerId, setOfferId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const create = useCreateTrackingNumber();

  async function handleSubmit(event?: FormEvent<HTMLFormElement>) {
    event?.preventDefault();
    const parsed = CreateTrackingNumber.safeParse({
      number,
      publisher_id: publisherId ?? '',
      offer_id: offerId ?? '',
    });
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      const made = await create.mutateAsync(parsed.data);
      toast({
        title: 'Number Added',
        description: `${formatPhone(made.number)} → ${made.publisher_name} on ${made.offer_title}`,
      });
      onAdded(made);
    } catch (err) {
      if (err instanceof ApiError && (err.details || err.status === 409)) {
        // A taken number is said under the number; a field the server names, under that field.
        setErrors(
          err.details
            ? Object.fromEntries(Object.entries(err.details).map(([k, v]) => [k, v[0] ?? '']))
            : { number: err.message },
        );
      }
      showFailure('Failed to add number', err);
    }
  }

  return (
    <FormModal
      opened
      onClose={onClose}
      title="Add number"
      dirty={number.trim() !== '' || publisherId !== null || offerId !== null}
      pending={create.isPending}
      submitLabel="Add number"
      size="md"
      onSubmit={handleSubmit}
    >
      <TextInput
        label="Tracking number"
        description="Any format, e.g. (866) 555-1234 or +44 20 7946 0958. Without a country code it is read in the country set in Settings."
        placeholder="(866) 555-1234"
        required
        inputMode="tel"
        autoComplete="off"
        value={number}
        error={errors.number}
        onChange={(e) => setNumber(e.currentTarget.value)}
        data-autofocus
      />
      <PublisherSelect
        label="Publisher"
        placeholder="Search publishers"
        required
        value={publisherId}
        error={errors.publisher_id}
        onChange={(v) => setPublisherId(v)}
        comboboxProps={{ withinPortal: true }}
      />
      <OfferSelect
        label="Offer"
        placeholder="Search offers"
        required
        value={offerId}
        error={errors.offer_id}
        onChange={(v) => setOfferId(v)}
        comboboxProps={{ withinPortal: true }}
      />
    </FormModal>
  );
}
