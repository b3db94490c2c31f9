import type { FileLink } from '@contract/admin.ts';
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import {
  checkFileUrl,
  FILE_MESSAGES,
  mediaKindOf,
} from '../../features/admin/compliance/components/file-url.ts';
import { ErrorAlert, RetryButton } from '../error-alert.tsx';

function FileProblem({
  message,
  onRetry,
  retrying,
}: {
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <ErrorAlert title={message} p="sm">
      {onRetry ? (
        <RetryButton
          label="Try again"
          color="red.9"
          iconSize={14}
          onRetry={onRetry}
          retrying={retrying}
        />
      ) : null}
    </ErrorAlert>
  );
}

const videoStyle = { width: '100%', maxHeight: 360, background: 'black', borderRadius: 8 };

/**
 * One compliance media file played in the page: mp3 in <audio controls>, mp4 in <video
 * controls>. A missing or bad URL and a file the browser cannot load say so in the spec's words;
 * Try again asks for a fresh signed URL.
 */
export function MediaFileView({
  file,
  index,
  onReload,
  reloading,
}: {
  file: FileLink | null | undefined;
  index: number;
  onReload: () => void;
  reloading: boolean;
}) {
  // The parent remounts this view (new key) after fresh URLs arrive, which clears the failure.
  const [failed, setFailed] = useState(false);
  const label = file?.name || `Media file ${index + 1}`;
  const checked = checkFileUrl(file?.url);

  let body: React.ReactNode;
  if (!checked.ok) {
    body = <FileProblem message={checked.message} />;
  } else if (failed) {
    body = (
      <FileProblem message={FILE_MESSAGES.loadFailed} onRetry={onReload} retrying={reloading} />
    );
  } else {
    const kind = mediaKindOf(file?.name ?? '', checked.href);
    const onError = () => setFailed(true);
    if (kind === 'audio' || kind === 'video') {
      // One player for both (call recordings submitted by publishers have no captions).
      const Player = kind;
      body = (
        <Player
          controls
          preload="metadata"
          src={checked.href}
          onError={onError}
          aria-label={label}
          style={kind === 'audio' ? { width: '100%' } : videoStyle}
        />
      );
    } else {
      body = (
        <Anchor href={checked.href} target="_blank" rel="noopener noreferrer" size="sm">
          Open {label}
        </Anchor>
      );
    }
  }

  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap={6}>
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {label}
        </Text>
        {body}
      </Stack>
    </Paper>
  );
}

/** The compliance document: opened in a new tab from its signed URL. */
export function DocumentFileView({ file }: { file: FileLink | null | undefined }) {
  const checked = checkFileUrl(file?.url);
  const label = file?.name || 'Compliance document';
  return (
    <Paper withBorder p="sm" radius="md">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
          <IconFileText size={20} aria-hidden />
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {label}
          </Text>
        </Group>
        {checked.ok ? (
          <Button
            component="a"
            href={checked.href}
            target="_blank"
            rel="noopener noreferrer"
            size="xs"
            variant="light"
            rightSection={<IconExternalLink size={14} />}
            aria-label={`Open document ${label}`}
          >
            Open document
          </Button>
        ) : null}
      </Group>
      {checked.ok ? null : (
        <Stack mt="xs">
          <FileProblem message={checked.message} />
        </Stack>
      )}
    </Paper>
  );
}
