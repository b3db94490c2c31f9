import {
  type AdminNotificationEvent,
  adminNotificationEventLabels,
  adminNotificationEvents,
  type NotificationPreferences,
} from '@contract/notifications.ts';
import { Button, Card, Checkbox, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { QueryError } from '@/components/lists/query-error.tsx';
import {
  useNotificationPreferences,
  useUpdateNotificationPreferences,
} from '@/features/admin/settings/api/notification-preferences.ts';
import { failedToast, toast } from '@/lib/notify.ts';

type Choices = Record<AdminNotificationEvent, boolean>;

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function EmailChoicesForm({ saved }: { saved: NotificationPreferences }) {
  const mutation = useUpdateNotificationPreferences();
  const [choices, setChoices] = useState<Choices>(saved.email);
  const changed = adminNotificationEvents.some((e) => choices[e] !== saved.email[e]);

  const handleSave = () =>
    mutation.mutate(
      { email: choices },
      {
        onSuccess: (next) => {
          setChoices(next.email);
          toast({
            title: 'E-mail choices saved',
            description: 'The bell still shows every event; e-mails follow your choices.',
          });
        },
        onError: failedToast('Failed to save settings'),
      },
    );

  return (
    <Stack gap="sm">
      {adminNotificationEvents.map((event) => (
        <Checkbox
          key={event}
          label={capitalized(adminNotificationEventLabels[event])}
          checked={choices[event]}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setChoices((c) => ({ ...c, [event]: on }));
          }}
        />
      ))}
      <Group justify="flex-end" mt="xs">
        <Button
          onClick={handleSave}
          disabled={!changed || mutation.isPending}
          loading={mutation.isPending}
        >
          Save e-mail choices
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * "E-mail me when…" (issue 16): which new work e-mails this admin. Each admin chooses for
 * themselves; the bell shows every event either way.
 */
export function EmailChoicesCard() {
  const query = useNotificationPreferences();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="lg" mb={4}>
        E-mail me when…
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Your own choice: other admins choose theirs. The bell shows every event either way.
      </Text>
      {query.isPending ? (
        <Stack gap="sm" role="status" aria-busy="true" aria-label="Loading e-mail choices">
          {adminNotificationEvents.map((e) => (
            <Skeleton key={e} height={20} />
          ))}
        </Stack>
      ) : query.isError ? (
        <QueryError title="Error loading settings" query={query} />
      ) : (
        <EmailChoicesForm saved={query.data} />
      )}
    </Card>
  );
}
