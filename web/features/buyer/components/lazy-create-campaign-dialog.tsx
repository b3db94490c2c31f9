import { lazy, Suspense, useState } from 'react';

// The dialog (date picker, form, schemas: ~50 KB gzip) is fetched when first opened, not with
// the screens that offer it.
const CreateCampaignDialog = lazy(async () => ({
  default: (await import('./create-campaign-dialog.tsx')).CreateCampaignDialog,
}));

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
