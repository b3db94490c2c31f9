import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { twoFactorPaths } from '@/app/two-factor-paths.ts';
import { loadAuthClient, useAuth } from '@/lib/auth.tsx';
import { useMe } from '@/lib/me.ts';
import { toast } from '@/lib/notify.ts';
import { usePublicSettings } from '@/lib/public-settings.ts';
import { hasVerifiedFactor, needsSecondFactor } from '@/lib/second-factor.ts';
import { AuthPageLayout } from './auth-page-layout.tsx';
import { RecoveryCodesPanel, requestRecoveryCodes } from './recovery-codes.tsx';
import {
  CodeField,
  readableDescription,
  twoFactorErrorMessage,
  verifyCode,
} from './two-factor-shared.tsx';

type Enrolment = { id: string; qrCode: string; secret: string };

/** The secret in groups of four, as authenticator apps show it and people type it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * /account/two-factor/setup: adds an authenticator app. The server makes the secret (GoTrue's
 * enroll); this screen shows its QR code and the secret to copy, then asks for the first code,
 * which verifies the app and raises this session to aal2.
 */
export function TwoFactorSetupPage() {
  const { session, user, loading } = useAuth();
  const navigate = useNavigate();
  const { data: settings } = usePublicSettings();
  const secondFactorDue = needsSecondFactor(session);
  const me = useMe(secondFactorDue ? null : user?.id);
  const [name, setName] = useState('Authenticator app');
  const [nameError, setNameError] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // The first app's recovery codes, shown once after it is verified (issue 34).
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (!loading && !session) return <Navigate to={paths.login} replace />;
  if (secondFactorDue) return <Navigate to={paths.twoFactorVerify} replace />;
  if (recoveryCodes) {
    return (
      <AuthPageLayout
        title="Two-factor sign-in is on"
        subtitle="From now on you sign in with your password and a code from your app."
      >
        <Stack gap="md">
          <RecoveryCodesPanel codes={recoveryCodes} company={settings?.company_name} />
          <Button fullWidth onClick={() => navigate(paths.root, { replace: true })}>
            I saved my codes: continue
          </Button>
        </Stack>
      </AuthPageLayout>
    );
  }
  const adding = hasVerifiedFactor(user);
  const required = me.data?.mfa_required === true && !adding;

  const handleStart = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Give this app a name, e.g. "Work phone"');
      return;
    }
    setPending(true);
    try {
      // Earlier tries that were never finished would hold the name: remove them first.
      const { data: listed } = await (await loadAuthClient()).mfa.listFactors();
      for (const f of listed?.all ?? []) {
        if (f.status === 'unverified')
          await (await loadAuthClient()).mfa.unenroll({ factorId: f.id });
      }
      const { data, error } = await (await loadAuthClient()).mfa.enroll({
        factorType: 'totp',
        friendlyName: name.trim(),
        issuer: settings?.company_name || undefined,
      });
      if (error) {
        setNameError(twoFactorErrorMessage(error));
        return;
      }
      setEnrolment({ id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret });
    } finally {
      setPending(false);
    }
  };

  const handleVerify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const first = !adding;
    await verifyCode(
      { code, setCode, setError: setCodeError, setPending },
      enrolment?.id,
      async () => {
        if (first) {
          // The session is aal2 now: the first app's recovery codes, shown on this screen once.
          try {
            setRecoveryCodes(await requestRecoveryCodes());
            return;
          } catch (err) {
            toast({
              title: 'No recovery codes yet',
              description: `${err instanceof Error ? err.message : String(err)} Make them under Profile → Two-factor sign-in.`,
              variant: 'destructive',
            });
          }
        }
        toast({
          title: 'Two-factor sign-in is on',
          description: 'From now on you sign in with your password and a code from this app.',
        });
        navigate(adding ? twoFactorPaths.settings : paths.root, { replace: true });
      },
    );
  };

  const handleLater = () => navigate(paths.root, { replace: true });

  return (
    <AuthPageLayout
      title="Set up two-factor sign-in"
      subtitle="Your password and a 6-digit code from an app on your phone: a stolen password alone is not enough."
    >
      <Stack gap="md">
        {required ? (
          <Alert color="blue" variant="light" title="Required for your account">
            Accounts like yours must use two-factor sign-in. It takes a minute. Until it is on, you
            are brought here each time you sign in.
          </Alert>
        ) : null}
        {!enrolment ? (
          <form onSubmit={handleStart} noValidate>
            <Stack gap="md">
              <Text size="sm">
                Install an authenticator app on your phone if you have none (Google Authenticator,
                Microsoft Authenticator, 1Password, Authy…).
              </Text>
              <TextInput
                label="Name of this app"
                description="Tells your apps apart if you add more than one"
                styles={{ description: readableDescription }}
                value={name}
                maxLength={100}
                error={nameError ?? undefined}
                onChange={(e) => {
                  setName(e.currentTarget.value);
                  setNameError(null);
                }}
              />
              <Button type="submit" fullWidth disabled={pending}>
                {pending ? 'Preparing…' : 'Show QR code'}
              </Button>
            </Stack>
          </form>
        ) : (
          <form onSubmit={handleVerify} noValidate>
            <Stack gap="md">
              <Text size="sm">
                1. In your authenticator app, add an account and scan this QR code.
              </Text>
              <Group justify="center">
                <Image
                  src={enrolment.qrCode}
                  alt="QR code to scan with your authenticator app"
                  w={200}
                  h={200}
                  fit="contain"
                  style={{ imageRendering: 'pixelated' }}
                />
              </Group>
              <Stack gap={6}>
                <Text size="sm">Can't scan it? Type this key into the app instead:</Text>
                <Group gap="xs" wrap="nowrap" align="center">
                  <Code
                    data-testid="totp-secret"
                    fz="sm"
                    style={{ wordBreak: 'break-all', flex: 1, padding: '6px 8px' }}
                  >
                    {grouped(enrolment.secret)}
                  </Code>
                  <CopyButton value={enrolment.secret}>
                    {({ copied, copy }) => (
                      <Button size="xs" variant="light" onClick={copy}>
                        {copied ? 'Copied' : 'Copy key'}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              </Stack>
              <Text size="sm">2. Enter the 6-digit code the app shows for this account.</Text>
              <CodeField value={code} error={codeError} onChange={setCode} autoFocus />
              <Button type="submit" fullWidth disabled={pending}>
                {pending ? 'Checking…' : 'Turn on two-factor sign-in'}
              </Button>
            </Stack>
          </form>
        )}
        {adding ? (
          <Anchor component={Link} to={twoFactorPaths.settings} size="sm">
            Cancel
          </Anchor>
        ) : (
          <Button variant="subtle" color="gray" onClick={handleLater}>
            Set up later
          </Button>
        )}
      </Stack>
    </AuthPageLayout>
  );
}
