import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The warning above a secret shown once (an integration key, an API key): what to do if lost. */
export function CopyOnceAlert({ children }: { children: ReactNode }) {
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title="Copy this key now"
      styles={{ title: { color: 'var(--mantine-color-black)' } }}
    >
      {children}
    </Alert>
  );
}
