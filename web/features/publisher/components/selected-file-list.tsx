import { ActionIcon, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFile, IconMusic, IconTrash } from '@tabler/icons-react';
import { extensionOf, formatBytes, isMediaFile } from './file-rules.ts';

// A stable key per picked File object (two picks of the same file are two rows).
const keys = new WeakMap<File, string>();
let nextKey = 0;
function keyOf(file: File): string {
  let key = keys.get(file);
  if (!key) {
    nextKey += 1;
    key = `file-${nextKey}`;
    keys.set(file, key);
  }
  return key;
}

type SelectedFileListProps = {
  files: File[];
  /** Names the list for screen readers, e.g. 'Selected media files'. */
  label: string;
  onRemove: (index: number) => void;
  disabled?: boolean;
};

/** Files picked for an upload, each with its type, size and a remove button. */
export function SelectedFileList({ files, label, onRemove, disabled }: SelectedFileListProps) {
  if (files.length === 0) return null;
  return (
    <Stack component="ul" gap={6} p={0} m={0} aria-label={label} style={{ listStyle: 'none' }}>
      {files.map((file, index) => (
        <Paper component="li" key={keyOf(file)} withBorder radius="md" px="sm" py={6}>
          <Group wrap="nowrap" gap="sm">
            {isMediaFile(file) ? (
              <IconMusic size={18} aria-hidden />
            ) : (
              <IconFile size={18} aria-hidden />
            )}
            <Text size="sm" style={{ flex: 1, minWidth: 0 }} truncate="end" title={file.name}>
              {file.name}
            </Text>
            <Badge variant="outline" color="gray" size="sm">
              {extensionOf(file.name).toUpperCase() || 'FILE'}
            </Badge>
            <Text size="xs" c="dimmed" w={64} ta="right" style={{ flexShrink: 0 }}>
              {formatBytes(file.size)}
            </Text>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => onRemove(index)}
              aria-label={`Remove ${file.name}`}
              disabled={disabled}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
