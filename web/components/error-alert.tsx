import { Alert, type AlertProps, Button } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';

/**
 * A light red alert with a warning icon (a triangle unless told): what failed, then the details
 * or a way out. Announced to screen readers (role="alert").
 */
export function ErrorAlert({
  icon = <IconAlertTriangle size={18} />,
  ...props
}: Omit<AlertProps, 'color' | 'variant' | 'role'>) {
  return <Alert color="red" variant="light" icon={icon} role="alert" {...props} />;
}

/** The white button in an ErrorAlert that runs the failed request again. */
export function RetryButton({
  label,
  color,
  iconSize,
  onRetry,
  retrying,
}: {
  label: string;
  color: string;
  iconSize: number;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <Button
      size="xs"
      variant="white"
      color={color}
      leftSection={<IconRefresh size={iconSize} />}
      onClick={onRetry}
      loading={retrying}
    >
      {label}
    </Button>
  );
}
