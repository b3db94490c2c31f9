import type { AdminOffer } from '@contract/admin.ts';
import {
  formatOpenHours,
  type OfferRules,
  officeHours,
  usStateCodes,
  usStates,
  weekdayNames,
} from '@contract/offer-rules.ts';
import {
  ActionIcon,
  Button,
  Chip,
  Divider,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import type { UseFormReturnType } from '@mantine/form';
import { randomId, useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { MoneyInput } from '@/components/forms/money-input.tsx';
import { TimeZoneSelect } from '@/components/time-zone-select.tsx';
import { usePublisherChoices } from '@/features/admin/offers/api/list-publisher-choices.ts';

/** The rules part of the offer form's values; '' is an empty number field. */
export type RuleValues = {
  buffer_seconds: number | string;
  duplicate_days: number | string;
  daily_cap: number | string;
  monthly_cap: number | string;
  publisher_daily_cap: number | string;
  publisher_monthly_cap: number | string;
  allowed_states: string[];
  hours_enabled: boolean;
  hours_time_zone: string;
  hours_days: string[];
  hours_from: string;
  hours_to: string;
  /** `key` only names the row on screen (React's list key); it is not sent. */
  overrides: { key: string; publisher_id: string; payout: number | string }[];
};

const countFields = [
  'buffer_seconds',
  'duplicate_days',
  'daily_cap',
  'monthly_cap',
  'publisher_daily_cap',
  'publisher_monthly_cap',
] as const;

/** The form's field names the server's rule errors land on. */
export const ruleFields = [...countFields, 'allowed_states', 'overrides'] as const;

export function ruleValuesOf(offer: AdminOffer | null, networkZone = 'UTC'): RuleValues {
  const r = offer?.rules;
  const h = r?.open_hours ?? null;
  return {
    buffer_seconds: r?.buffer_seconds ?? '',
    duplicate_days: r?.duplicate_days ?? '',
    daily_cap: r?.daily_cap ?? '',
    monthly_cap: r?.monthly_cap ?? '',
    publisher_daily_cap: r?.publisher_daily_cap ?? '',
    publisher_monthly_cap: r?.publisher_monthly_cap ?? '',
    allowed_states: r?.allowed_states ?? [],
    hours_enabled: h !== null,
    hours_time_zone: h?.time_zone ?? networkZone,
    hours_days: (h?.days ?? officeHours.days).map(String),
    hours_from: h?.from ?? officeHours.from,
    hours_to: h?.to ?? officeHours.to,
    overrides: (offer?.payout_overrides ?? []).map((o) => ({
      key: o.publisher_id,
      publisher_id: o.publisher_id,
      payout: o.payout,
    })),
  };
}

const count = (v: number | string) => (v === '' ? null : Number(v));

/** The request body's `rules` and `payout_overrides` from the form's values. */
export function rulesBody(v: RuleValues) {
  return {
    rules: {
      buffer_seconds: count(v.buffer_seconds),
      duplicate_days: count(v.duplicate_days),
      daily_cap: count(v.daily_cap),
      monthly_cap: count(v.monthly_cap),
      publisher_daily_cap: count(v.publisher_daily_cap),
      publisher_monthly_cap: count(v.publisher_monthly_cap),
      allowed_states: v.allowed_states,
      open_hours: v.hours_enabled
        ? {
            time_zone: v.hours_time_zone,
            days: v.hours_days.map(Number),
            from: v.hours_from,
            to: v.hours_to,
          }
        : null,
    },
    payout_overrides: v.overrides.map((o) => ({
      publisher_id: o.publisher_id,
      payout: o.payout === '' ? (undefined as unknown as number) : Number(o.payout),
    })),
  };
}

/**
 * A contract error path (`rules.buffer_seconds`, `rules.open_hours.from`,
 * `payout_overrides.0.payout`) as the form field that shows it.
 */
export function ruleFieldOf(path: readonly PropertyKey[]): string | null {
  const [head, second, third] = path.map(String);
  if (head === 'rules') {
    if (second === 'open_hours') {
      const name = { time_zone: 'time_zone', days: 'days', from: 'from', to: 'to' }[third ?? ''];
      return `hours_${name ?? 'days'}`;
    }
    if (second === 'allowed_states') return 'allowed_states';
    return second ?? null;
  }
  if (head === 'payout_overrides') {
    if (second === undefined) return 'overrides';
    return `overrides.${second}.${third ?? 'publisher_id'}`;
  }
  return null;
}

const stateOptions = usStateCodes.map((code) => ({
  value: code,
  label: `${code}: ${usStates[code]}`,
}));

/** What the open hours read as, under the switch. */
function hoursPreview(v: RuleValues): string | null {
  if (!v.hours_enabled || v.hours_days.length === 0) return null;
  if (!/^\d\d:\d\d$/.test(v.hours_from) || !/^\d\d:\d\d$/.test(v.hours_to)) return null;
  const hours: NonNullable<OfferRules['open_hours']> = {
    time_zone: v.hours_time_zone,
    days: v.hours_days.map(Number),
    from: v.hours_from,
    to: v.hours_to,
  };
  return `Calls pay ${formatOpenHours(hours)}.`;
}

/** The whole-number rules, in the order the form shows them. */
const countInputs: {
  name: (typeof countFields)[number];
  label: string;
  description: string;
  max?: number;
}[] = [
  {
    name: 'buffer_seconds',
    label: 'Billable duration (seconds)',
    description: 'Shorter calls do not pay.',
    max: 86_400,
  },
  {
    name: 'duplicate_days',
    label: 'Duplicate window (days)',
    description: 'A repeat caller within it does not pay.',
    max: 365,
  },
  { name: 'daily_cap', label: 'Daily cap', description: 'Payable calls a day, whole offer.' },
  { name: 'monthly_cap', label: 'Monthly cap', description: 'Payable calls a month, whole offer.' },
  {
    name: 'publisher_daily_cap',
    label: 'Daily cap per publisher',
    description: 'Payable calls a day, each publisher.',
  },
  {
    name: 'publisher_monthly_cap',
    label: 'Monthly cap per publisher',
    description: 'Payable calls a month, each publisher.',
  },
];

type FieldsProps<V extends RuleValues> = {
  form: UseFormReturnType<V>;
  offer: AdminOffer | null;
};

/** The "Call rules" and "Payout per publisher" sections of the offer form. */
export function OfferRulesFields<V extends RuleValues>({ form, offer }: FieldsProps<V>) {
  const f = form as unknown as UseFormReturnType<RuleValues>;
  const v = f.getValues();
  const preview = hoursPreview(v);
  const numberProps = (name: (typeof countFields)[number]) => ({
    min: 1,
    step: 1,
    allowDecimal: false,
    allowNegative: false,
    thousandSeparator: ',',
    placeholder: 'None',
    ...f.getInputProps(name),
  });
  return (
    <>
      <Divider label="Call rules" labelPosition="left" mt="xs" />
      <Text size="xs" c="dimmed" mt={-8}>
        Decide which calls from the call tracker pay. An empty rule does not apply; publishers see
        the rules on the offer.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {countInputs.map((c) => (
          <NumberInput
            key={c.name}
            label={c.label}
            description={c.description}
            max={c.max}
            {...numberProps(c.name)}
          />
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt={-6}>
        Days and months of caps follow the network time zone (Settings).
      </Text>
      <MultiSelect
        label="Allowed states"
        description="Only callers from these states pay. Empty: any state."
        placeholder={v.allowed_states.length ? undefined : 'Any state'}
        data={stateOptions}
        searchable
        clearable
        hidePickedOptions
        nothingFoundMessage="No state matches"
        maxDropdownHeight={240}
        {...f.getInputProps('allowed_states')}
      />
      <Stack gap="xs">
        <Switch
          label="Pay only calls within open hours"
          {...f.getInputProps('hours_enabled', { type: 'checkbox' })}
        />
        {v.hours_enabled ? (
          <Stack gap="xs" pl="md">
            <TimeZoneSelect
              label="Time zone of the open hours"
              maxDropdownHeight={240}
              {...f.getInputProps('hours_time_zone')}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="offer-open-days-label">
                Open days
              </Text>
              <Chip.Group multiple {...f.getInputProps('hours_days')}>
                <Group gap={6} role="group" aria-labelledby="offer-open-days-label">
                  {weekdayNames.map((name, i) => (
                    <Chip key={name} value={String(i + 1)} size="sm">
                      {name}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
              {f.errors.hours_days ? (
                <Text c="red" size="xs">
                  {f.errors.hours_days}
                </Text>
              ) : null}
            </Stack>
            <Group grow align="flex-start">
              <TimeInput label="Opens at" {...f.getInputProps('hours_from')} />
              <TimeInput
                label="Closes at"
                description="Earlier than the opening: the next day."
                {...f.getInputProps('hours_to')}
              />
            </Group>
            {preview ? (
              <Text size="xs" c="dimmed" data-testid="open-hours-preview">
                {preview}
              </Text>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
      <PayoutOverrides form={f} offer={offer} />
    </>
  );
}

/** Per-publisher payouts: a publisher picker and an amount per row. */
function PayoutOverrides({
  form,
  offer,
}: {
  form: UseFormReturnType<RuleValues>;
  offer: AdminOffer | null;
}) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const rows = form.getValues().overrides;
  const choices = usePublisherChoices(q, true);
  // Publishers already on the offer keep their label even when the search does not list them.
  const data = useMemo(() => {
    const byId = new Map<string, string>();
    for (const o of offer?.payout_overrides ?? []) {
      byId.set(
        o.publisher_id,
        o.publisher_name ? `${o.publisher_name} (${o.publisher_email})` : o.publisher_email,
      );
    }
    for (const p of choices.data?.items ?? []) {
      byId.set(p.id, p.name ? `${p.name} (${p.email})` : p.email);
    }
    return [...byId].map(([value, label]) => ({ value, label }));
  }, [choices.data, offer?.payout_overrides]);
  return (
    <Stack gap="xs">
      <Divider label="Payout per publisher" labelPosition="left" mt="xs" />
      <Text size="xs" c="dimmed" mt={-8}>
        These publishers' calls pay this amount instead of the offer's payout (each sees only their
        own).
      </Text>
      {rows.map((row, i) => (
        <Group key={row.key} align="flex-start" wrap="nowrap" gap="xs">
          <Select
            style={{ flex: 1 }}
            label={`Publisher ${i + 1}`}
            placeholder="Search publishers"
            data={data}
            searchable
            onSearchChange={setSearch}
            nothingFoundMessage="No approved publisher matches"
            {...form.getInputProps(`overrides.${i}.publisher_id`)}
          />
          <MoneyInput w={130} label="Payout" {...form.getInputProps(`overrides.${i}.payout`)} />
          <ActionIcon
            variant="subtle"
            color="red"
            mt={26}
            aria-label={`Remove publisher payout ${i + 1}`}
            onClick={() => form.removeListItem('overrides', i)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {form.errors.overrides ? (
        <Text c="red" size="xs" role="alert">
          {form.errors.overrides}
        </Text>
      ) : null}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() =>
            form.insertListItem('overrides', { key: randomId(), publisher_id: '', payout: '' })
          }
        >
          Add publisher payout
        </Button>
      </Group>
    </Stack>
  );
}
