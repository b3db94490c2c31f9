import type { PostbackSettings } from '@contract/outbound.ts';
import { TagsInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { showFailure } from '@/components/forms/show-failure.ts';
import { documentHooks } from '@/lib/api-queries.ts';
import { toast } from '@/lib/notify.ts';
import { SettingsCard } from './settings-card.tsx';

/** /api/v1/admin/postback-settings, typed here: only this card calls it. */
const postbackSettings = documentHooks<PostbackSettings, PostbackSettings>(
  'admin/postback-settings',
  ['admin', 'postback-settings'],
);

/** The tracker tags publishers may pass to their postbacks as `{tag:name}` (e.g. a sub-id). */
export function PostbackTagsCard() {
  const saved = postbackSettings.useGet();
  const save = postbackSettings.useSave();
  const [tags, setTags] = useState<string[]>([]);
  useEffect(() => {
    if (saved.data) setTags(saved.data.passable_tags);
  }, [saved.data]);

  async function handleSave() {
    try {
      await save.mutateAsync({ passable_tags: tags });
      toast({ title: 'Postback Tags Saved', description: `${tags.length} tags may be passed.` });
    } catch (err) {
      showFailure('Failed to save postback tags', err);
    }
  }

  return (
    <SettingsCard
      title="Postback tags"
      about={
        <>
          The tracker tags a publisher&apos;s postback may carry as {'{tag:name}'}, such as their
          own sub-id. Others stay private.
        </>
      }
      save={{ label: 'Save Tags', query: saved, mutation: save, onSave: handleSave }}
    >
      <TagsInput
        label="Passable tags"
        placeholder={saved.isPending ? 'Loading…' : 'Type a tag name and press Enter'}
        value={tags}
        onChange={setTags}
        disabled={saved.isPending || saved.isError}
        error={saved.isError ? 'The tags could not be loaded.' : undefined}
      />
    </SettingsCard>
  );
}
