import type { Campaign } from '@contract/buyer.ts';
import { Suspense, useState } from 'react';
import { lazyExport } from '@/lib/lazy-export.ts';

// The dialogs (date picker, form, schemas: ~50 KB gzip) are fetched when first opened, not with
// the screens that offer them.
const loadDialogs = () => import('./create-campaign-dialog.tsx');
const CreateCampaignDialog = lazyExport(loadDialogs, 'CreateCampaignDialog');
const EditCampaignDialog = lazyExport(loadDialogs, 'EditCampaignDialog');

type LazyCreateCampaignDialogProps = { opened: boolean; onClose: () => void };

/** The Create Campaign dialog, mounted from its first opening on (so it can animate closed). */
export function LazyCreateCampaignDialog({ opened, onClose }: LazyCreateCampaignDialogProps) {
  const [used, setUsed] = useState(opened);
  if (opened && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <CreateCampaignDialog opened={opened} onClose={onClose} />
    </Suspense>
  );
}

/** Edit campaign for the campaign picked (none: nothing mounted); a new pick starts afresh. */
export function LazyEditCampaignDialog({
  campaign,
  onClose,
}: {
  campaign: Campaign | null;
  onClose: () => void;
}) {
  if (!campaign) return null;
  return (
    <Suspense fallback={null}>
      <EditCampaignDialog key={campaign.id} opened campaign={campaign} onClose={onClose} />
    </Suspense>
  );
}
