import { type AdminSettings, UpdateSettings } from '@contract/admin.ts';
import {
  currencies,
  PAYOUT_HOLD_LABELS,
  type PayoutHoldCondition,
  payoutHoldConditions,
} from '@contract/money.ts';
import { COMPANY_ADDRESS_MAX } from '@contract/settings.ts';
import {
  Anchor,
  Box,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  Image,
  NumberInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPhoto } from '@tabler/icons-react';
import { getCountries } from 'libphonenumber-js/min';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { GrowingTextarea } from '@/components/forms/growing-textarea.tsx';
import { QueryError } from '@/components/lists/query-error.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { TimeZoneSelect } from '@/components/time-zone-select.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { useAdminSettings } from '@/features/admin/settings/api/get-admin-settings.ts';
import { useUpdateSettings } from '@/features/admin/settings/api/update-settings.ts';
import { LOGO_ACCEPT, useUploadLogo } from '@/features/admin/settings/api/upload-logo.ts';
import { formatDateTime } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { BuyersCard } from './buyers-card.tsx';
import { EmailChoicesCard } from './email-choices-card.tsx';
import { PostbackTagsCard } from './postback-tags-card.tsx';
import { SubIdsCard } from './sub-ids-card.tsx';

const resolveSettings = schemaResolver(UpdateSettings, { sync: true });

type FormValues = {
  company_name: string;
  welcome_message: string;
  support_email: string;
  timezone: string;
  currency: string;
  /** '' while blank. */
  min_payout: number | string;
  phone_country: string;
  /** '' when none (saved as null: not printed). */
  company_address: string;
  /** The conditions that hold a publisher's payout in a run. */
  payout_holds: PayoutHoldCondition[];
};

/** Countries most networks take calls from, first in the list. */
const COMMON_PHONE_COUNTRIES: Record<string, string> = {
  US: 'United States',
  CA: 'Canada',
  GB: 'United Kingdom',
  AU: 'Australia',
  NZ: 'New Zealand',
  IE: 'Ireland',
  MX: 'Mexico',
  PR: 'Puerto Rico',
  IN: 'India',
  PH: 'Philippines',
  ZA: 'South Africa',
  DE: 'Germany',
  FR: 'France',
  ES: 'Spain',
};

/**
 * The phone country choices: the common ones first, then every other country the phone library
 * knows (the server's own list), by name.
 */
function phoneCountryChoices(current: string): { value: string; label: string }[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const label = (code: string) =>
    `${COMMON_PHONE_COUNTRIES[code] ?? names.of(code) ?? code} (${code})`;
  const common = Object.keys(COMMON_PHONE_COUNTRIES);
  const others = getCountries()
    .filter((code) => !common.includes(code))
    .sort((x, y) => label(x).localeCompare(label(y)));
  const codes = [...common, ...others];
  if (current && !codes.includes(current)) codes.unshift(current);
  return codes.map((code) => ({ value: code, label: label(code) }));
}

/** The form's values of the saved settings (no address: ''). */
const valuesOf = (v: AdminSettings): FormValues => ({
  company_name: v.company_name,
  welcome_message: v.welcome_message,
  support_email: v.support_email,
  timezone: v.timezone,
  currency: v.currency,
  min_payout: v.min_payout,
  phone_country: v.phone_country,
  company_address: v.company_address ?? '',
  payout_holds: v.payout_holds,
});

/** A card of the settings screen under its heading. */
function SettingsCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="lg" mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function BrandingForm({ settings }: { settings: AdminSettings }) {
  const mutation = useUpdateSettings();
  const phoneChoices = useMemo(
    () => phoneCountryChoices(settings.phone_country),
    [settings.phone_country],
  );
  const form = useForm<FormValues>({
    initialValues: valuesOf(settings),
    validate: (values) =>
      resolveSettings({
        ...values,
        min_payout: values.min_payout === '' ? undefined : Number(values.min_payout),
      } as unknown as FormValues),
  });

  const handleSubmit = form.onSubmit((values) => {
    mutation.mutate(
      {
        company_name: values.company_name.trim(),
        welcome_message: values.welcome_message.trim(),
        support_email: values.support_email.trim(),
        timezone: values.timezone,
        currency: values.currency as UpdateSettings['currency'],
        min_payout: Number(values.min_payout),
        phone_country: values.phone_country,
        company_address: values.company_address.trim() || null,
        payout_holds: values.payout_holds,
      },
      {
        onSuccess: (saved) => {
          const next = valuesOf(saved);
          form.setInitialValues(next);
          form.setValues(next);
          toast({ title: 'Settings Saved', description: 'Your changes are live for everyone.' });
        },
        onError: failedToast('Failed to save settings'),
      },
    );
  });

  return (
    <SettingsCard title="Company">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <TextInput label="Company name" required {...form.getInputProps('company_name')} />
          <GrowingTextarea
            label="Welcome message"
            description="Shown to publishers and buyers at the top of their dashboard."
            minRows={3}
            maxRows={8}
            {...form.getInputProps('welcome_message')}
          />
          <TextInput
            label="Support email"
            type="email"
            required
            {...form.getInputProps('support_email')}
          />
          <GrowingTextarea
            label="Postal address (printed on statements)"
            description="Several lines, as on an envelope; left empty, statements print none."
            minRows={3}
            maxLength={COMPANY_ADDRESS_MAX}
            {...form.getInputProps('company_address')}
          />
          <TimeZoneSelect
            label="Network time zone"
            description="Days in reports, daily caps, “today” and dates in CSV exports follow this zone."
            {...form.getInputProps('timezone')}
          />
          <Group grow align="flex-start">
            <Select
              label="Currency"
              description="Every amount is shown with its symbol; one currency per network."
              data={[...currencies]}
              allowDeselect={false}
              {...form.getInputProps('currency')}
            />
            <NumberInput
              label="Minimum payout"
              description="“All owed above threshold” pays publishers owed at least this."
              min={0}
              step={0.01}
              decimalScale={2}
              {...form.getInputProps('min_payout')}
            />
          </Group>
          <Checkbox.Group
            label="Hold a publisher's payout when"
            description="A payout run lists a held publisher with the amount and the reason, and pays them only once the hold is fixed or released (with a note) from their page."
            {...form.getInputProps('payout_holds')}
          >
            <Stack gap={6} mt={6}>
              {payoutHoldConditions.map((c) => (
                <Checkbox key={c} value={c} label={PAYOUT_HOLD_LABELS[c]} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Select
            label="Phone numbers without a country code are read as"
            description="Callers and tracking numbers are kept with their country code (+1 866 555 1234); a number sent without one is read in this country."
            data={phoneChoices}
            searchable
            allowDeselect={false}
            nothingFoundMessage="No country matches"
            maxDropdownHeight={260}
            {...form.getInputProps('phone_country')}
          />
          <Group justify="space-between" wrap="wrap">
            <Text size="xs" c="dimmed">
              Last saved {formatDateTime(settings.updated_at)}
            </Text>
            <Button type="submit" disabled={mutation.isPending} loading={mutation.isPending}>
              Save settings
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsCard>
  );
}

function LogoCard({ settings }: { settings: AdminSettings }) {
  const mutation = useUploadLogo();
  const [file, setFile] = useState<File | null>(null);

  const handleUpload = () => {
    if (!file) {
      toast({
        title: 'No file selected',
        description: 'Choose a PNG, JPG or SVG file first.',
        variant: 'destructive',
      });
      return;
    }
    mutation.mutate(file, {
      onSuccess: () => {
        setFile(null);
        toast({ title: 'Logo Uploaded', description: 'The new logo is live everywhere.' });
      },
      onError: failedToast('Logo upload failed'),
    });
  };

  return (
    <SettingsCard title="Logo">
      <Stack gap="md">
        <Box
          p="md"
          bg="gray.0"
          style={{
            border: '1px dashed var(--mantine-color-gray-4)',
            borderRadius: 'var(--mantine-radius-md)',
          }}
        >
          {settings.logo_url ? (
            <Image
              src={settings.logo_url}
              alt="Current logo"
              h={64}
              w="auto"
              maw="100%"
              fit="contain"
            />
          ) : (
            <Group gap="xs" c="dimmed" h={64}>
              <IconPhoto size={24} aria-hidden />
              <Text size="sm">No logo yet: the sidebar shows the default.</Text>
            </Group>
          )}
        </Box>
        <FileInput
          label="Logo file"
          description="Max 5MB. PNG, JPG, SVG."
          placeholder="Choose a file"
          styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
          accept={LOGO_ACCEPT}
          value={file}
          onChange={setFile}
          clearable
          leftSection={<IconPhoto size={16} />}
        />
        <Group justify="flex-end">
          <Button onClick={handleUpload} disabled={mutation.isPending} loading={mutation.isPending}>
            Upload logo
          </Button>
        </Group>
      </Stack>
    </SettingsCard>
  );
}

/**
 * /admin/settings: company name, welcome message, support e-mail, postal address, time zone,
 * currency, minimum payout, phone country, the logo and the buyers' return window and caller number.
 */
export function SettingsPage() {
  const query = useAdminSettings();
  useErrorToast(query.error, 'Error loading settings');

  return (
    <Stack gap="lg">
      <PageHeader
        title="Settings"
        description="Branding for every sidebar, the login page and e-mails."
      />
      {query.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} role="status" aria-busy="true" aria-label="Loading">
          <Skeleton height={360} />
          <Skeleton height={300} />
        </SimpleGrid>
      ) : query.isError ? (
        <QueryError title="Error loading settings" query={query} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} style={{ alignItems: 'start' }}>
          {/* The form keeps its own values after mount: a refetch never wipes what is being typed. */}
          <BrandingForm settings={query.data} />
          <Stack gap="lg">
            <LogoCard settings={query.data} />
            <BuyersCard settings={query.data} />
            <EmailChoicesCard />
            <PostbackTagsCard />
            <SubIdsCard />
            <SettingsCard title="Fraud rules">
              <Text size="sm">
                Repeat callers, publisher velocity, short calls, caller anomalies and publisher
                rejects: each rule's thresholds and whether it flags or holds calls.{' '}
                <Anchor component={Link} to={`${adminPaths.fraud}?tab=rules`}>
                  Fraud → Rules
                </Anchor>
              </Text>
            </SettingsCard>
          </Stack>
        </SimpleGrid>
      )}
    </Stack>
  );
}
