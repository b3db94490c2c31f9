import { Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ErrorAlert, RetryButton } from './error-alert.tsx';

type QueryErrorStateProps = {
  /** e.g. 'Error loading leads'. */
  title: string;
  error?: Error | null | undefined;
  /** The sentence to show instead of the error's. */
  message?: string;
  onRetry: () => void;
  /** The button's word: Retry, or Reload when only a reload can help. */
  retryLabel?: string;
  /** True while the retry is running. */
  retrying?: boolean;
};

/** The in-page error state of a screen whose data could not be loaded, with a Retry button. */
export function QueryErrorState({
  title,
  error,
  message,
  onRetry,
  retryLabel = 'Retry',
  retrying,
}: QueryErrorStateProps) {
  return (
    <ErrorAlert title={title} icon={<IconAlertTriangle size={20} />}>
      <Text size="sm" mb="sm">
        {message ?? (error?.message || 'Something went wrong.')}
      </Text>
      <Group>
        <RetryButton
          label={retryLabel}
          color="red"
          iconSize={16}
          onRetry={onRetry}
          retrying={retrying}
        />
      </Group>
    </ErrorAlert>
  );
}
