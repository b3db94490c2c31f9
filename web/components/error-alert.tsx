import { Alert, type AlertProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

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
