import { Button } from '@mantine/core';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import { failedToast } from '@/lib/notify.ts';

/**
 * Shared header actions of a money list (leads, payouts): Export CSV of the current filters
 * (a failure toasts 'Export failed' with the server's message) and the Record… button.
 */
export function ExportAndRecordActions({
  exportCsv,
  exporting,
  recordLabel,
  onRecord,
}: {
  /** Starts the download; rejects with the server's error. */
  exportCsv: () => Promise<unknown>;
  exporting: boolean;
  recordLabel: string;
  onRecord: () => void;
}) {
  const handleExport = () => exportCsv().catch(failedToast('Export failed'));
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} />}
        onClick={handleExport}
        loading={exporting}
      >
        Export CSV
      </Button>
      <Button leftSection={<IconPlus size={16} />} onClick={onRecord}>
        {recordLabel}
      </Button>
    </>
  );
}
