import type { TrackingNumberImport } from '@contract/integrations.ts';
import {
  Button,
  Code,
  FileInput,
  Group,
  List,
  Modal,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '@/components/error-alert.tsx';
import { useImportTrackingNumbers } from '@/features/admin/tracking-numbers/api/import-tracking-numbers.ts';
import { formatCount } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';

const EXAMPLE = `number,publisher,offer
(866) 555-1234,ann@example.com,Solar Inbound
+1 877 555 0100,3f2b9c4e-…,Medicare Calls`;

/**
 * "Import CSV": a file of `number,publisher,offer` rows, imported all or none. When a line is
 * wrong nothing is imported and each wrong line is listed with its number, to fix and upload
 * again. Mounted only while open.
 */
export function ImportNumbersModal({ onClose }: { onClose: () => void }) {
  const isPhone = useMediaQuery('(max-width: 48em)');
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<TrackingNumberImport | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const upload = useImportTrackingNumbers();

  async function handleImport() {
    if (!file) {
      setFileError('Please choose a CSV file.');
      return;
    }
    setFileError(null);
    try {
      const answer = await upload.mutateAsync(file);
      if (answer.errors.length === 0) {
        toast({
          title: 'Numbers Imported',
          description: `${formatCount(answer.created)} tracking number${answer.created === 1 ? '' : 's'} added.`,
        });
        onClose();
        return;
      }
      setResult(answer);
    } catch (err) {
      setResult(null);
      setFileError(err instanceof Error ? err.message : 'Something went wrong');
    }
  }

  return (
    <Modal
      opened
      onClose={upload.isPending ? () => {} : onClose}
      title="Import tracking numbers"
      size="lg"
      fullScreen={isPhone}
      closeButtonProps={{ 'aria-label': 'Close', disabled: upload.isPending }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="md">
        <Text size="sm">
          A CSV file whose first line names the columns <b>number</b>, <b>publisher</b> (id or
          e-mail) and <b>offer</b> (id or exact title); at most 10,000 rows. Every row is imported,
          or none.
        </Text>
        <Code block>{EXAMPLE}</Code>
        <FileInput
          label="CSV file"
          placeholder="Choose a file"
          accept=".csv,text/csv"
          leftSection={<IconFileTypeCsv size={16} />}
          clearable
          value={file}
          error={fileError}
          onChange={(f) => {
            setFile(f);
            setResult(null);
            setFileError(null);
          }}
        />
        {result ? (
          <ErrorAlert title="Nothing was imported">
            <Stack gap="xs">
              <Text size="sm">Fix these lines in the file and upload it again.</Text>
              <ScrollArea.Autosize mah={240} type="auto">
                <List size="sm" spacing={4} aria-label="Lines with errors">
                  {result.errors.map((e) => (
                    <List.Item key={`${e.line}-${e.message}`}>
                      <Text span size="sm" fw={600}>
                        Line {e.line}:
                      </Text>{' '}
                      {e.message}
                    </List.Item>
                  ))}
                </List>
              </ScrollArea.Autosize>
            </Stack>
          </ErrorAlert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={upload.isPending}>
            Cancel
          </Button>
          <Button onClick={handleImport} loading={upload.isPending}>
            Import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
