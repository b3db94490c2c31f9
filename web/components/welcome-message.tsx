import { Skeleton, Text } from '@mantine/core';
import { usePublicSettings } from '@/lib/public-settings.ts';

/**
 * The operator's welcome message (Admin → Settings) under a dashboard's greeting, the
 * publisher's and the buyer's; `fallback` when none is set (nothing unless told).
 */
export function WelcomeMessage({ fallback }: { fallback?: string }) {
  const settings = usePublicSettings();
  if (settings.isPending) return <Skeleton height={16} width={260} maw="100%" />;
  const text = settings.data?.welcome_message || fallback;
  return text ? (
    <Text c="dimmed" style={{ whiteSpace: 'pre-line' }}>
      {text}
    </Text>
  ) : null;
}
