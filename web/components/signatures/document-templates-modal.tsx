import {
  type DocumentTemplates,
  templatePlaceholders,
  unknownPlaceholders,
} from '@contract/documents.ts';
import { Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormModal } from '@/components/form-modal.tsx';
import { toast } from '@/lib/notify.ts';
import { documentTemplateHooks } from './signatures-api.ts';

type Errors = Partial<Record<keyof DocumentTemplates, string>>;

const known = templatePlaceholders.map((n) => `{{${n}}}`).join(', ');

/** The first problem of a template's text, as the server would say it. */
function problemOf(text: string): string | undefined {
  if (text.trim().length < 20) return 'Write at least a few sentences of the template.';
  const unknown = unknownPlaceholders(text);
  return unknown.length
    ? `Unknown placeholder ${unknown.map((n) => `{{${n}}}`).join(', ')}.`
    : undefined;
}

/**
 * "Document templates": the texts an agreement or an IO is sent from ("Send for signature" →
 * From the template), with placeholders for the publisher's and the offer's fields.
 */
export function DocumentTemplatesModal({ onClose }: { onClose: () => void }) {
  const current = documentTemplateHooks.useGet();
  const save = documentTemplateHooks.useSave();
  const [texts, setTexts] = useState<DocumentTemplates>({ agreement: '', io: '' });
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (current.data) setTexts(current.data);
  }, [current.data]);

  const submit = (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    const found: Errors = {};
    for (const kind of ['agreement', 'io'] as const) {
      const problem = problemOf(texts[kind]);
      if (problem) found[kind] = problem;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    save.mutate(texts, {
      onSuccess: () => {
        toast({
          title: 'Templates Saved',
          description: 'New documents are sent from these texts.',
        });
        onClose();
      },
      onError: (err) => setErrors({ agreement: err.message }),
    });
  };

  const field = (kind: keyof DocumentTemplates, label: string) => (
    <Textarea
      label={label}
      value={texts[kind]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setTexts((t) => ({ ...t, [kind]: value }));
      }}
      error={errors[kind]}
      autosize
      minRows={6}
      maxRows={14}
      required
    />
  );

  return (
    <FormModal
      opened
      onClose={onClose}
      title="Document templates"
      dirty={Boolean(current.data) && JSON.stringify(current.data) !== JSON.stringify(texts)}
      pending={save.isPending}
      submitLabel="Save templates"
      onSubmit={submit}
    >
      <Text size="sm" c="dimmed">
        The first line is the document’s title. Placeholders: {known}. The offer’s fields are filled
        in an IO only (it is sent for one of the publisher’s applications).
      </Text>
      {field('agreement', 'Agreement')}
      {field('io', 'Insertion order (IO)')}
    </FormModal>
  );
}
