import type { AdminSettings } from '@contract/admin.ts';
import { Button, Checkbox, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { DaysInput } from '@/components/forms/days-input.tsx';
import { useUpdateSettings } from '@/features/admin/settings/api/update-settings.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { SettingsCard } from './settings-card.tsx';

/**
 * Buyers (issue 31): how many days a buyer has to return a billed call, and whether buyers see
 * the caller's whole number on their calls (else its last 4 digits).
 */
export function BuyersCard({ settings }: { settings: AdminSettings }) {
  const mutation = useUpdateSettings();
  const [days, setDays] = useState<number | string>(settings.buyer_return_days);
  const [fullCaller, setFullCaller] = useState(settings.buyer_sees_full_caller);
  const whole = typeof days === 'number' && Number.isInteger(days) && days >= 0 && days <= 365;
  const changed =
    days !== settings.buyer_return_days || fullCaller !== settings.buyer_sees_full_caller;

  const handleSave = () =>
    mutation.mutate(
      { buyer_return_days: Number(days), buyer_sees_full_caller: fullCaller },
      {
        onSuccess: (saved) => {
          setDays(saved.buyer_return_days);
          setFullCaller(saved.buyer_sees_full_caller);
          toast({ title: 'Buyer settings saved', description: 'Buyers see the change at once.' });
        },
        onError: failedToast('Failed to save buyer settings'),
      },
    );

  return (
    <SettingsCard title="Buyers">
      <DaysInput
        label="Return window (days)"
        description="A buyer may return a billed call for this many days after it; 0 turns returns off."
        value={days}
        onChange={setDays}
        error={whole ? undefined : 'A whole number of days from 0 to 365.'}
      />
      <Checkbox
        label="Buyers see the full caller number"
        description="Otherwise a buyer's calls show the caller's last 4 digits only."
        checked={fullCaller}
        onChange={(e) => setFullCaller(e.currentTarget.checked)}
      />
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          Applies to every buyer.
        </Text>
        <Button
          onClick={handleSave}
          disabled={!changed || !whole || mutation.isPending}
          loading={mutation.isPending}
        >
          Save buyer settings
        </Button>
      </Group>
    </SettingsCard>
  );
}
