import {
  ACCOUNT_TYPE_LABELS,
  accountTypes,
  PAYMENT_METHOD_LABELS,
  paymentMethods,
  TAX_FORM_LABELS,
  UpdatePaymentDetails,
} from '@contract/money.ts';
import {
  Badge,
  Button,
  Card,
  Group,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import { QueryError } from '@/components/lists/query-error.tsx';
import { serverFieldErrors, validateWithSchema } from '@/components/zod-form.ts';
import { usePaymentDetails, useUpdatePaymentDetails } from '@/features/publisher/api/money.ts';
import { ApiError } from '@/lib/api-client.ts';
import { formatDateTime } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';

type Values = {
  method: string;
  account: string;
  holder_name: string;
  routing_number: string;
  account_type: string;
};

const EMPTY: Values = {
  method: '',
  account: '',
  holder_name: '',
  routing_number: '',
  account_type: '',
};

/** The request body: routing number and account type only for a (US) bank transfer. */
const toBody = (v: Values) => ({
  method: v.method,
  account: v.account,
  holder_name: v.holder_name,
  ...(v.method === 'bank_transfer' && {
    routing_number: v.routing_number,
    account_type: v.account_type || null,
  }),
});
const validate = validateWithSchema(UpdatePaymentDetails, toBody);

/** What the account field asks for, per method. */
const ACCOUNT_FIELD: Record<string, { label: string; description: string }> = {
  paypal: {
    label: 'PayPal e-mail',
    description: 'The e-mail address of your PayPal account.',
  },
  wise: {
    label: 'Wise e-mail',
    description: 'The e-mail address of your Wise account.',
  },
  bank_transfer: {
    label: 'Account number',
    description: 'Your US bank account number: 4 to 17 digits.',
  },
  check: {
    label: 'Mailing address',
    description: 'Where the check is mailed: street, city, state and ZIP code.',
  },
  other: {
    label: 'Account or reference',
    description: 'How the network should pay you.',
  },
};

/** /dashboard/profile: how the network pays this publisher (the admins are told of changes). */
export function ProfilePage() {
  const details = usePaymentDetails();
  const mutation = useUpdatePaymentDetails();
  const form = useForm<Values>({ mode: 'controlled', initialValues: EMPTY, validate });
  const loaded = details.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fill the form once the details load
  useEffect(() => {
    if (loaded) {
      form.setValues({
        method: loaded.method ?? '',
        account: loaded.account ?? '',
        holder_name: loaded.holder_name ?? '',
        routing_number: loaded.routing_number ?? '',
        account_type: loaded.account_type ?? '',
      });
      form.resetDirty();
    }
  }, [loaded]);

  const submit = form.onSubmit((values) =>
    mutation.mutate(toBody(values) as UpdatePaymentDetails, {
      onSuccess: () =>
        toast({
          title: 'Payment details saved',
          description: 'The network has been told; they apply to your next payout.',
        }),
      onError: (err) => {
        if (err instanceof ApiError)
          form.setErrors(serverFieldErrors(err.details, Object.keys(values)));
        failedToast('Update failed')(err);
      },
    }),
  );

  const method = form.values.method;
  const account = ACCOUNT_FIELD[method] ?? {
    label: 'Account or reference',
    description: 'Choose a method first.',
  };
  const bank = method === 'bank_transfer';

  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Profile</Title>
      <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="pb-title">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={4}>
            <Title order={2} size="h4" id="pb-title">
              Postbacks
            </Title>
            <Text size="sm" c="dimmed">
              Tell your tracker, server to server, when a call pays or changes.
            </Text>
          </Stack>
          <Button component={Link} to={publisherPaths.postbacks} variant="light">
            Set Up Postbacks
          </Button>
        </Group>
      </Card>
      <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="pay-title">
        <Title order={2} size="h4" id="pay-title" mb={4}>
          Payment details
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          How the network sends your payouts. The network's admins are told when you change them.
        </Text>
        {details.error ? (
          <QueryError title="Error loading payment details" query={details} />
        ) : details.isPending ? (
          <Skeleton height={220} />
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <Select
                label="Method"
                required
                placeholder="Choose how you are paid"
                data={paymentMethods.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
                {...form.getInputProps('method')}
              />
              <TextInput
                label={method === 'check' ? 'Payee name' : 'Account holder name'}
                required
                description={
                  method === 'check'
                    ? 'The name printed on the check.'
                    : 'Your legal name (or your company’s) exactly as your bank or payment service has it.'
                }
                autoComplete="name"
                {...form.getInputProps('holder_name')}
              />
              {method === 'check' ? (
                <Textarea
                  label={account.label}
                  required
                  description={account.description}
                  autosize
                  minRows={2}
                  {...form.getInputProps('account')}
                />
              ) : (
                <TextInput
                  label={account.label}
                  required
                  description={account.description}
                  type={method === 'paypal' || method === 'wise' ? 'email' : 'text'}
                  inputMode={bank ? 'numeric' : undefined}
                  {...form.getInputProps('account')}
                />
              )}
              {bank ? (
                <Group grow align="flex-start">
                  <TextInput
                    label="Routing number"
                    required
                    description="9 digits (ABA), printed at the bottom left of your checks."
                    inputMode="numeric"
                    maxLength={9}
                    {...form.getInputProps('routing_number')}
                  />
                  <Select
                    label="Account type"
                    required
                    placeholder="Checking or savings"
                    data={accountTypes.map((a) => ({ value: a, label: ACCOUNT_TYPE_LABELS[a] }))}
                    {...form.getInputProps('account_type')}
                  />
                </Group>
              ) : null}
              <Stack gap={2} aria-live="polite">
                <Group gap="xs">
                  <Text size="sm" fw={500}>
                    Tax form status
                  </Text>
                  <Badge
                    variant="light"
                    color={loaded?.tax_form_status === 'approved' ? 'teal' : 'gray'}
                  >
                    {TAX_FORM_LABELS[loaded?.tax_form_status ?? 'not_submitted']}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed">
                  Set by the network after reviewing your form.
                </Text>
              </Stack>
              {loaded?.updated_at ? (
                <Text size="xs" c="dimmed">
                  Last changed {formatDateTime(loaded.updated_at)}
                </Text>
              ) : null}
              <Button type="submit" loading={mutation.isPending} w="fit-content">
                Save payment details
              </Button>
            </Stack>
          </form>
        )}
      </Card>
    </Stack>
  );
}
