import type { FraudRule, FraudRuleParams } from '@contract/fraud.ts';
import {
  Button,
  Card,
  Group,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { QueryError } from '@/components/lists/query-error.tsx';
import { useFraudRules, useSaveRule } from '@/features/admin/fraud/api/fraud.ts';
import { fraudRuleLabels } from '@/lib/fraud-routes.ts';
import { failedToast, toast } from '@/lib/notify.ts';

/** Each threshold's label. */
const paramLabels: Record<keyof FraudRuleParams, string> = {
  max_calls: 'More than this many calls',
  hours: 'Within hours',
  multiplier: 'Times the usual volume',
  weeks: 'Usual volume over weeks',
  min_calls: 'At least this many calls',
  seconds_above_buffer: 'Seconds over the buffer',
  share_percent: 'Share above (%)',
};

/** What each rule looks at, in a sentence. */
const ruleHelp: Record<FraudRule['rule'], string> = {
  repeat_caller: 'One caller calling again and again, across every offer.',
  publisher_velocity: "A publisher's calls this hour against their usual for the weekday and hour.",
  short_calls: "A publisher's calls ending just over the offer's buffer.",
  caller_anomaly:
    'Invalid or unallocated caller numbers, and a caller equal to the tracking number.',
  publisher_rejects: "A publisher's share of duplicate or rejected calls.",
};

function RuleCard({ rule }: { rule: FraudRule }) {
  const save = useSaveRule();
  const [enabled, setEnabled] = useState(rule.enabled);
  const [action, setAction] = useState(rule.action);
  const [params, setParams] = useState(rule.params);
  const keys = Object.keys(rule.params) as (keyof FraudRuleParams)[];
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{fraudRuleLabels[rule.rule]}</Text>
          <Switch
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
            aria-label={`${fraudRuleLabels[rule.rule]} on`}
          />
        </Group>
        <Text size="sm" c="dimmed">
          {ruleHelp[rule.rule]}
        </Text>
        <SegmentedControl
          value={action}
          onChange={(v) => setAction(v as FraudRule['action'])}
          data={[
            { value: 'flag', label: 'Flag only' },
            { value: 'hold', label: 'Hold for review' },
          ]}
        />
        {keys.length ? (
          <SimpleGrid cols={2}>
            {keys.map((k) => (
              <NumberInput
                key={k}
                label={paramLabels[k]}
                min={1}
                value={params[k]}
                onChange={(v) =>
                  setParams({ ...params, [k]: typeof v === 'number' ? v : Number(v) })
                }
              />
            ))}
          </SimpleGrid>
        ) : null}
        <Group justify="flex-end">
          <Button
            size="sm"
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                { rule: rule.rule, enabled, action, params },
                {
                  onSuccess: () =>
                    toast({ title: 'Rule saved', description: fraudRuleLabels[rule.rule] }),
                  onError: failedToast('Failed to save the rule'),
                },
              )
            }
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The rules' settings: on/off, flag or hold, thresholds; each saved on its own. */
export function FraudRulesPanel() {
  const query = useFraudRules();
  if (query.isError) return <QueryError title="Error loading the rules" query={query} />;
  if (!query.data) return <Text c="dimmed">Loading…</Text>;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      {query.data.rules.map((r) => (
        <RuleCard key={r.rule} rule={r} />
      ))}
    </SimpleGrid>
  );
}
