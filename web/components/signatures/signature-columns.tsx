import type { SignatureDocument } from '@contract/documents.ts';
import { IconDownload } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { failedToast } from '@/lib/notify.ts';
import {
  actionsColumn,
  dateColumn,
  RowActions,
  RowButton,
  statusColumn,
  TitleCell,
} from '../lists/columns.tsx';
import { downloadSignedPdf } from './signatures-api.ts';

const kindName = (d: SignatureDocument) => (d.kind === 'io' ? 'IO' : 'Agreement');

/** The columns every list of documents shows: the document, its status and dates, its PDF. */
export function signatureColumns(): DataTableColumn<SignatureDocument>[] {
  return [
    {
      accessor: 'title',
      title: 'Document',
      render: (d) => (
        <TitleCell
          title={d.title}
          sub={`${kindName(d)} v${d.version}${d.offer_title ? ` · ${d.offer_title}` : ''}`}
          miw={180}
        />
      ),
    },
    { ...statusColumn<SignatureDocument>('io'), sortable: false },
    dateColumn('sent_at', 'Sent', (d) => d.sent_at, { sortable: true }),
    dateColumn('signed_at', 'Signed', (d) => d.signed_at, { sortable: true }),
    dateColumn('expires_at', 'Expires', (d) => d.expires_at, { sortable: true }),
    actionsColumn((d) =>
      d.signed_pdf_path ? (
        <RowActions>
          <RowButton
            icon={<IconDownload size={14} />}
            label={`Download the signed PDF of ${d.title}`}
            onClick={() =>
              void downloadSignedPdf(d.id, d.title).catch(failedToast('Download Failed'))
            }
          >
            Signed PDF
          </RowButton>
        </RowActions>
      ) : null,
    ),
  ];
}
