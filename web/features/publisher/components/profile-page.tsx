import {
  PAYMENT_METHOD_LABELS,
  paymentMethods,
  TAX_FORM_LABELS,
  taxFormStatuses,
  UpdatePaymentDetails,
} from '@contract/money.ts';
import { Button, Card, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { QueryErrorState } from '@/components/query-error-state.tsx';
import { serverFieldErrors, validateWithSchema } from '@/components/zod-form.ts';
import { usePaymentDetails, useUpdatePaymentDetails } from '@/features/publisher/api/money.ts';
import { ApiError } from '@/lib/api-client.ts';
import { formatDateTime } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';

type Values = { method: string; account: string; tax_form_status: string };

const toBody = (v: Values) => ({
  method: v.method,
  account: v.account,
  tax_form_status: v.tax_form_status,
});
const validate = validateWithSchema(UpdatePaymentDetails, toBody);

/** /dashboard/profile: how the network pays this publisher (the admins are told of changes). */
export function ProfilePage() {
  const details = usePaymentDetails();
  const mutation = useUpdatePaymentDetails();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { method: '', account: '', tax_form_status: 'not_submitted' },
    validate,
  });
  const loaded = details.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fill the form once the details load
  useEffect(() => {
    if (loaded) {
      form.setValues({
        method: loaded.method ?? '',
        account: loaded.account ?? '',
        tax_form_status: loaded.tax_form_status,
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
        toast({ title: 'Update failed', description: err.message, variant: 'destructive' });
      },
    }),
  );

  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Profile</Title>
      <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="pay-title">
        <Title order={2} size="h4" id="pay-title" mb={4}>
          Payment details
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          How the network sends your payouts. The network's admins are told when you change them.
        </Text>
        {details.error ? (
          <QueryErrorState
            title="Error loading payment details"
            error={details.error}
            onRetry={() => details.refetch()}
            retrying={details.isFetching}
          />
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
                label="Account or reference"
                required
                description="IBAN or account number, PayPal e-mail, or the address for checks."
                {...form.getInputProps('account')}
              />
              <Select
                label="Tax form status"
                required
                data={taxFormStatuses.map((s) => ({ value: s, label: TAX_FORM_LABELS[s] }))}
                allowDeselect={false}
                {...form.getInputProps('tax_form_status')}
              />
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
