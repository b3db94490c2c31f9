import { Alert, type AlertProps } from '@mantine/core';

/**
 * A light yellow notice (role="status", not an alarm) with a black title: something the user has
 * to wait for or do first.
 */
export function NoticeAlert(props: Omit<AlertProps, 'color' | 'variant' | 'role' | 'styles'>) {
  return (
    <Alert
      color="yellow"
      variant="light"
      role="status"
      styles={{ title: { color: 'var(--mantine-color-black)' } }}
      {...props}
    />
  );
}
