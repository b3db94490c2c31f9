import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useEffect } from 'react';
import { toast } from '../lib/notify.ts';

/**
 * Shows the spec's loading-error toast ('Error loading leads', …) with the server's message,
 * once per failure (a retry that fails again toasts again). Shared by every list screen.
 */
export function useErrorToast(error: Error | null | undefined, title: string) {
  useEffect(() => {
    if (error) toast({ title, description: error.message, variant: 'destructive' });
  }, [error, title]);
}

type QueryErrorStateProps = {
  /** e.g. 'Error loading leads'. */
  title: string;
  error: Error | null | undefined;
  onRetry: () => void;
  /** True while the retry is running. */
  retrying?: boolean;
};

/** The in-page error state of a screen whose data could not be loaded, with a Retry button. */
export function QueryErrorState({ title, error, onRetry, retrying }: QueryErrorStateProps) {
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertTriangle size={20} />}
      role="alert"
    >
      <Text size="sm" mb="sm">
        {error?.message || 'Something went wrong.'}
      </Text>
      <Group>
        <Button
          size="xs"
          variant="white"
          color="red"
          leftSection={<IconRefresh size={16} />}
          onClick={onRetry}
          loading={retrying}
        >
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
