import {
  type CallField,
  callFields,
  eventTargets,
  type FieldFormat,
  type FieldRule,
  formatsOf,
  type Mapping,
} from '@contract/ingest-mapping.ts';
import {
  Accordion,
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconRestore, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { WholeNumberInput } from '@/components/forms/whole-number-input.tsx';
import {
  draftOf,
  effectiveRule,
  type MappingEdits,
  presetRuleOf,
  type RuleDraft,
  ruleOf,
} from './rule-draft.ts';
import {
  defaultFormatOf,
  describeRule,
  formatLabels,
  sameRule,
  targetLabel,
} from './rule-words.ts';

const eventChoices = eventTargets.map((t) => ({ value: t, label: targetLabel(t) }));

/** The controls of one field's rule: names, constant, default, value map, format, split. */
function RuleFields({
  field,
  draft,
  onChange,
}: {
  field: CallField;
  draft: RuleDraft;
  onChange: (draft: RuleDraft) => void;
}) {
  const set = (patch: Partial<RuleDraft>) => onChange({ ...draft, ...patch });
  const setRow = (i: number, patch: Partial<RuleDraft['map'][number]>) =>
    set({ map: draft.map.map((row, j) => (j === i ? { ...row, ...patch } : row)) });
  const formats = formatsOf[field];
  const isEvent = field === 'event';
  return (
    <Stack gap="sm">
      <TagsInput
        label="Parameter names"
        description="The first one present wins. A dotted path reads nested JSON (call.uuid). Press Enter after each."
        value={draft.names}
        onChange={(names) => set({ names })}
        clearable
        acceptValueOnBlur
        splitChars={[',', ' ']}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="Constant"
          description="Always this value; the names are not read."
          value={draft.const}
          onChange={(e) => set({ const: e.currentTarget.value })}
        />
        <TextInput
          label="Default"
          description="When the tracker sends nothing for it."
          value={draft.default}
          onChange={(e) => set({ default: e.currentTarget.value })}
        />
      </SimpleGrid>
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          Value map
        </Text>
        <Text size="xs" c="dimmed">
          {isEvent
            ? "The tracker's word for the event → what it means for us. Case and spaces do not matter; * stands for any other value."
            : "The tracker's value → ours. Case and spaces do not matter; * stands for any other value."}
        </Text>
        {draft.map.map((row, i) => (
          // Rows have no identity of their own but their place: typing renames the key.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Group key={i} gap="xs" wrap="nowrap" align="center">
            <TextInput
              aria-label={`Tracker value ${i + 1}`}
              placeholder="e.g. no-answer"
              value={row.from}
              onChange={(e) => setRow(i, { from: e.currentTarget.value })}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Text size="sm" aria-hidden>
              →
            </Text>
            {isEvent ? (
              // A native select: ten rows of it stay light, and phones show their own picker.
              <NativeSelect
                aria-label={`Our value ${i + 1}`}
                data={row.to ? eventChoices : [{ value: '', label: 'Choose…' }, ...eventChoices]}
                value={row.to}
                onChange={(e) => setRow(i, { to: e.currentTarget.value })}
                style={{ flex: 1, minWidth: 0 }}
              />
            ) : (
              <TextInput
                aria-label={`Our value ${i + 1}`}
                value={row.to}
                onChange={(e) => setRow(i, { to: e.currentTarget.value })}
                style={{ flex: 1, minWidth: 0 }}
              />
            )}
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove value ${i + 1}`}
              onClick={() => set({ map: draft.map.filter((_, j) => j !== i) })}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => set({ map: [...draft.map, { from: '', to: '' }] })}
          >
            Add value
          </Button>
        </Group>
      </Stack>
      {formats ? (
        <NativeSelect
          label="Format"
          data={formats.map((f) => ({ value: f, label: formatLabels[f] }))}
          value={draft.format ?? defaultFormatOf(field) ?? ''}
          onChange={(e) => set({ format: e.currentTarget.value as FieldFormat })}
        />
      ) : null}
      <Stack gap={6}>
        <Checkbox
          label="The value is packed with others: take one part"
          checked={draft.split !== null}
          onChange={(e) =>
            set({ split: e.currentTarget.checked ? { delimiter: '|', index: 0 } : null })
          }
        />
        {draft.split ? (
          <SimpleGrid cols={{ base: 2 }} spacing="sm">
            <TextInput
              label="Delimiter"
              value={draft.split.delimiter}
              onChange={(e) =>
                set({ split: { index: draft.split?.index ?? 0, delimiter: e.currentTarget.value } })
              }
            />
            <WholeNumberInput
              label="Part (0 is the first)"
              max={9}
              value={draft.split.index}
              onChange={(v) =>
                set({
                  split: {
                    delimiter: draft.split?.delimiter ?? '|',
                    index: typeof v === 'number' ? v : Number(v) || 0,
                  },
                })
              }
            />
          </SimpleGrid>
        ) : null}
      </Stack>
    </Stack>
  );
}

/**
 * Per call field, the rule it is read by, in words ("event ← CallStatus, no-answer → not
 * connected"); opening a row edits it, and "Reset to preset" puts the preset's rule back on
 * save (the PATCH sends null for it).
 */
export function MappingEditor({
  current,
  preset,
  edits,
  errors,
  onChange,
}: {
  /** The integration's rules today (every field). */
  current: Record<string, FieldRule>;
  /** The tracker preset's mapping. */
  preset: Mapping;
  edits: MappingEdits;
  /** Messages keyed `field_map.<field>`. */
  errors: Record<string, string>;
  onChange: (edits: MappingEdits) => void;
}) {
  // Only an open row renders its controls: thirteen rows of inputs would slow every keystroke.
  const [open, setOpen] = useState<string[]>([]);
  const setEdit = (field: CallField, edit: RuleDraft | null | undefined) => {
    const next = { ...edits };
    if (edit === undefined) delete next[field];
    else next[field] = edit;
    onChange(next);
  };
  return (
    <Accordion
      multiple
      value={open}
      onChange={setOpen}
      variant="contained"
      chevronPosition="left"
      aria-label="Field mapping"
    >
      {callFields.map((field) => {
        const rule = effectiveRule(field, edits, current, preset);
        const presetRule = presetRuleOf(preset, field);
        const edit = edits[field];
        const isPreset = sameRule(field, rule, presetRule);
        const error = errors[`field_map.${field}`];
        return (
          <Accordion.Item key={field} value={field}>
            <Accordion.Control>
              <Group gap="xs" wrap="wrap" justify="space-between">
                <Text
                  size="sm"
                  ff="monospace"
                  style={{ overflowWrap: 'anywhere', minWidth: 0, flex: '1 1 16rem' }}
                  data-testid={`rule-${field}`}
                >
                  {describeRule(field, rule)}
                </Text>
                <Group gap={4} wrap="nowrap">
                  {edit === null ? (
                    <Badge size="sm" variant="light" color="blue" c="blue.9">
                      Preset's rule on save
                    </Badge>
                  ) : edit && !sameRule(field, ruleOf(edit), current[field]) ? (
                    <Badge size="sm" variant="light" color="yellow" c="yellow.9">
                      Edited
                    </Badge>
                  ) : !isPreset ? (
                    <Badge size="sm" variant="light" color="gray" c="dark.6">
                      Not the preset's
                    </Badge>
                  ) : null}
                  {error ? (
                    <Badge size="sm" variant="light" color="red" c="red.9">
                      Error
                    </Badge>
                  ) : null}
                </Group>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              {open.includes(field) ? (
                <Stack gap="sm">
                  {error ? (
                    <Text size="sm" c="red.8" role="alert">
                      {error}
                    </Text>
                  ) : null}
                  <RuleFields
                    field={field}
                    draft={edit ?? draftOf(rule)}
                    onChange={(d) => setEdit(field, d)}
                  />
                  <Group justify="flex-end" gap="xs">
                    {edit !== undefined ? (
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => setEdit(field, undefined)}
                      >
                        Undo changes
                      </Button>
                    ) : null}
                    <Button
                      size="compact-sm"
                      variant="light"
                      leftSection={<IconRestore size={14} />}
                      disabled={edit === null || (edit === undefined && isPreset)}
                      aria-label={`Reset ${field} to preset`}
                      onClick={() => setEdit(field, null)}
                    >
                      Reset to preset
                    </Button>
                  </Group>
                </Stack>
              ) : null}
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}
