import {
  defaultSignatureHeader,
  type SignatureScheme,
  signatureSchemes,
} from '@contract/ingest-mapping.ts';
import { PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { memo, type ReactNode, useMemo } from 'react';
import { timeZoneChoices } from '@/components/time-zone-select.tsx';
import { schemeLabels } from './rule-words.ts';

/**
 * The time zone of offset-less timestamps; empty is UTC. Memoised: its 400-odd options would
 * otherwise be drawn again at every keystroke of the form around it.
 */
export const TimeZoneSelect = memo(function TimeZoneSelect({
  value,
  error,
  onChange,
}: {
  /** '' for UTC. */
  value: string;
  error?: ReactNode;
  onChange: (zone: string) => void;
}) {
  const data = useMemo(() => timeZoneChoices(value || null), [value]);
  return (
    <Select
      label="Time zone"
      description={timeZoneHelp}
      placeholder="UTC"
      searchable
      clearable
      data={data}
      value={value || null}
      error={error}
      onChange={(v) => onChange(v ?? '')}
      comboboxProps={{ withinPortal: true }}
    />
  );
});

/** The sentence under the account id, in the create and the edit form. */
export const accountIdHelp =
  "The tracker's account (e.g. its account id or AccountSid). Integrations of one tracker account share calls, so one call is one lead even when a pixel and a webhook both report it.";

export const timeZoneHelp =
  'For timestamps the tracker sends without an offset (UTC when left empty).';

export type SignatureValues = {
  signature_scheme: SignatureScheme;
  signature_secret: string;
  signature_header: string;
};

const secretHelp: Record<SignatureScheme, string> = {
  callrail: "CallRail's signing key (Account settings, Integrations, Webhooks).",
  twilio: "The Twilio account's Auth Token.",
  basic: 'user:password, as the tracker sends them.',
  'hmac-sha256': 'The shared secret the tracker signs the body with.',
};

/** Scheme, secret and header of a signature check (the header defaults per scheme). */
export function SignatureFields({
  values,
  errors,
  onChange,
}: {
  values: SignatureValues;
  errors: Partial<Record<keyof SignatureValues, string>>;
  onChange: (patch: Partial<SignatureValues>) => void;
}) {
  return (
    <Stack gap="sm">
      <Select
        label="Signature scheme"
        data={signatureSchemes.map((s) => ({ value: s, label: schemeLabels[s] }))}
        value={values.signature_scheme}
        allowDeselect={false}
        error={errors.signature_scheme}
        onChange={(v) => v && onChange({ signature_scheme: v as SignatureScheme })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <PasswordInput
          label="Signing secret"
          description={secretHelp[values.signature_scheme]}
          autoComplete="new-password"
          value={values.signature_secret}
          error={errors.signature_secret}
          onChange={(e) => onChange({ signature_secret: e.currentTarget.value })}
        />
        <TextInput
          label="Header"
          description="Leave empty for the scheme's own header."
          placeholder={defaultSignatureHeader[values.signature_scheme]}
          value={values.signature_header}
          error={errors.signature_header}
          onChange={(e) => onChange({ signature_header: e.currentTarget.value })}
        />
      </SimpleGrid>
    </Stack>
  );
}

/** The allowed source addresses typed one a line (or separated by commas), as a list. */
export const ipsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The signature part of a request body, from the form's values. */
export function signatureOf(v: SignatureValues) {
  const header = v.signature_header.trim();
  return {
    scheme: v.signature_scheme,
    secret: v.signature_secret,
    ...(header ? { header } : {}),
  };
}

/**
 * A request body's issue path (`signature.secret`, `allowed_ips.2`, `field_map.event.map.x`)
 * as the key of the form input that shows it.
 */
export function inputKeyOf(path: readonly PropertyKey[]): string {
  const [head, second] = path.map(String);
  if (head === 'signature') {
    return second && ['scheme', 'secret', 'header'].includes(second)
      ? `signature_${second}`
      : 'signature_secret';
  }
  if (head === 'field_map' && second) return `field_map.${second}`;
  return head ?? 'form';
}

/** Issues (client zod issues or the server's `details`) as input key → first message. */
export function errorsByInput(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = inputKeyOf(issue.path);
    if (!out[key]) out[key] = issue.message;
  }
  return out;
}

/** The server's `details` (dotted field → messages) as issues. */
export const detailIssues = (details: Record<string, string[]> | undefined) =>
  Object.entries(details ?? {}).flatMap(([field, messages]) =>
    messages.map((message) => ({ path: field.split('.'), message })),
  );
