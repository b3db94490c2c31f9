import type { SetupStep } from '@contract/admin.ts';
import { Anchor, Button, Card, Group, List, Progress, Stack, Text, Title } from '@mantine/core';
import { IconCircle, IconCircleCheckFilled } from '@tabler/icons-react';
import { Link } from 'react-router';
import { adminPaths, paths } from '@/app/routes.ts';
import {
  useDismissSetupChecklist,
  useSetupChecklist,
} from '@/features/admin/dashboard/api/setup-checklist.ts';
import { failedToast } from '@/lib/notify.ts';

/** Each step's sentence and where it is done. */
const stepText: Record<SetupStep, { label: string; hint: string; to: string; action: string }> = {
  brand: {
    label: 'Brand the portal',
    hint: 'Your company name and logo, on every screen and e-mail.',
    to: adminPaths.settings,
    action: 'Open Settings',
  },
  offer: {
    label: 'Create an offer',
    hint: 'What publishers send calls for, and what each call pays.',
    to: adminPaths.offers,
    action: 'Open Offers',
  },
  tracker: {
    label: 'Connect a tracker',
    hint: 'An integration gives your call tracker the address and key to send calls to.',
    to: adminPaths.integrations,
    action: 'Open Integrations',
  },
  publishers: {
    label: 'Invite publishers',
    hint: `Send them the sign-up page: ${window.location.origin}${paths.signup}`,
    to: adminPaths.publishers,
    action: 'Open Publishers',
  },
};

/**
 * The newcomer's tour on the admin dashboard (issue 34): four steps, each ticked from the
 * network's data, shown until every step is done or the admin dismisses it (kept on their
 * account, so it stays away on every device).
 */
export function SetupChecklistCard() {
  const checklist = useSetupChecklist();
  const dismiss = useDismissSetupChecklist();
  const data = checklist.data;
  if (!data || data.dismissed || data.steps.every((s) => s.done)) return null;
  const done = data.steps.filter((s) => s.done).length;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="setup-checklist-title">
      <Group justify="space-between" align="flex-start" mb="sm" wrap="nowrap">
        <Stack gap={2}>
          <Title order={2} fz="lg" id="setup-checklist-title">
            Get your network started
          </Title>
          <Text size="sm" c="dimmed">
            {done} of {data.steps.length} done
          </Text>
        </Stack>
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          loading={dismiss.isPending}
          onClick={() => dismiss.mutate(undefined, { onError: failedToast('Update failed') })}
        >
          Dismiss
        </Button>
      </Group>
      <Progress
        value={(done / data.steps.length) * 100}
        size="sm"
        mb="md"
        aria-label={`${done} of ${data.steps.length} steps done`}
      />
      <List spacing="sm" listStyleType="none" center>
        {data.steps.map(({ step, done: ticked }) => {
          const t = stepText[step];
          return (
            <List.Item
              key={step}
              icon={
                ticked ? (
                  <IconCircleCheckFilled
                    size={22}
                    color="var(--mantine-color-green-8)"
                    aria-hidden
                  />
                ) : (
                  <IconCircle size={22} color="var(--mantine-color-gray-6)" aria-hidden />
                )
              }
            >
              <Text size="sm" fw={600}>
                {t.label}
                <Text component="span" size="sm" fw={400} c="dimmed">
                  {ticked ? ' — done' : ' — to do'}
                </Text>
              </Text>
              {ticked ? null : (
                <Text size="xs" c="dimmed">
                  {t.hint}{' '}
                  <Anchor component={Link} to={t.to} size="xs" underline="always">
                    {t.action}
                  </Anchor>
                </Text>
              )}
            </List.Item>
          );
        })}
      </List>
    </Card>
  );
}
