import { reportGroupLabels, subIdGroups } from '@contract/reports.ts';
import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { showFailure } from '@/components/forms/show-failure.ts';
import { useReportSettings, useSaveReportSettings } from '@/components/report-sub-ids.ts';
import { toast } from '@/lib/notify.ts';
import { SettingsCard } from './settings-card.tsx';

/** Which stored tracker tags Reports can group by, as sub1–sub5 (issue 34). */
export function SubIdsCard() {
  const saved = useReportSettings();
  const save = useSaveReportSettings();
  const [tags, setTags] = useState<string[]>(subIdGroups.map(() => ''));
  useEffect(() => {
    if (saved.data) setTags(saved.data.sub_id_tags);
  }, [saved.data]);

  async function handleSave() {
    try {
      const answer = await save.mutateAsync({ sub_id_tags: tags.map((t) => t.trim()) });
      const n = answer.sub_id_tags.filter(Boolean).length;
      toast({
        title: 'Sub-ids Saved',
        description:
          n === 1 ? 'Reports can group by 1 sub-id.' : `Reports can group by ${n} sub-ids.`,
      });
    } catch (err) {
      showFailure('Failed to save sub-ids', err);
    }
  }

  return (
    <SettingsCard
      title="Sub-ids in reports"
      about={
        <>
          The tracker tags Reports can group calls by (e.g. utm_source, a publisher&apos;s sub-id).
          Type the tag name as your tracker sends it; leave a sub-id blank if unused.
        </>
      }
      save={{ label: 'Save Sub-ids', query: saved, mutation: save, onSave: handleSave }}
    >
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {subIdGroups.map((g, i) => (
          <TextInput
            key={g}
            label={reportGroupLabels[g]}
            placeholder={saved.isPending ? 'Loading…' : 'Tag name'}
            value={tags[i] ?? ''}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setTags((all) => all.map((t, j) => (j === i ? value : t)));
            }}
            disabled={saved.isPending || saved.isError}
          />
        ))}
      </SimpleGrid>
      {saved.isError ? (
        <Text size="sm" c="red.8">
          The sub-ids could not be loaded.
        </Text>
      ) : null}
    </SettingsCard>
  );
}
