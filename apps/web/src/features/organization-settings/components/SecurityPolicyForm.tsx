import { Alert, Anchor, NumberInput, Radio, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MFA_GRACE_DAYS_MAX, type MfaPolicy, type SecurityPolicy } from '@portolan/contract';
import { IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { ErrorCode } from '../../../lib/error-codes';
import { ProblemAlert, SaveChangesButton } from '../../../lib/form-parts';
import { applyFieldErrors, resetToSaved } from '../../../lib/forms';
import { SECURITY_SETTINGS_PATH } from '../../../lib/mfa-required';
import { isStepUpRequired } from '../../../lib/step-up';
import { toast } from '../../../lib/toasts';
import { useUpdateSecurityPolicy } from '../api/security-policy-api';

export const SecurityPolicyMessages = {
  saved: 'The security policy is saved.',
  graceDays: `Enter a whole number of days from 0 to ${MFA_GRACE_DAYS_MAX}.`,
  unavailable: 'The policy could not be saved right now. Please try again in a moment.',
} as const;

export const POLICY_LABELS: Record<MfaPolicy, string> = {
  off: 'Off',
  any: 'Any second factor',
  phishing_resistant: 'Passkeys only (phishing-resistant)',
};

const POLICY_DESCRIPTIONS: Record<MfaPolicy, string> = {
  off: 'Members decide for themselves whether to use a second factor.',
  any: 'An authenticator app or a passkey, as well as the password.',
  phishing_resistant:
    'A passkey: it answers only the real sign-in page, so a look-alike page gets nothing.',
};

/** What a member without a qualifying factor is missing, in words. */
const MISSING: Record<Exclude<MfaPolicy, 'off'>, string> = {
  any: 'an authenticator app or a passkey',
  phishing_resistant: 'a passkey',
};

const DAY_MS = 24 * 60 * 60 * 1000;
/** The server's clock decides from when members are refused; this one may run a little behind. */
const CLOCK_LEEWAY_MS = 5 * 60 * 1000;

/** Whether a moment is still ahead of `now` (beyond the leeway: a grace is whole days anyway). */
export function stillAhead(moment: Date | string, now: Date): boolean {
  return new Date(moment).getTime() > now.getTime() + CLOCK_LEEWAY_MS;
}

interface Values {
  require_mfa: MfaPolicy;
  grace_days: number | string;
}

const valuesOf = (policy: SecurityPolicy): Values => ({
  require_mfa: policy.require_mfa,
  grace_days: policy.grace_days,
});

/**
 * From when members without a qualifying factor would be refused, were the form saved now: the
 * server keeps the start of an unchanged requirement (only the grace changes) and starts a new one
 * otherwise.
 */
function enforcedFromIfSaved(values: Values, saved: SecurityPolicy, now: Date): Date | null {
  if (values.require_mfa === 'off') return null;
  const days = Number(values.grace_days);
  if (!Number.isInteger(days) || days < 0) return null;
  const start =
    values.require_mfa === saved.require_mfa && saved.since ? new Date(saved.since) : now;
  return new Date(start.getTime() + days * DAY_MS);
}

/** What the members will see under the chosen policy, and when. */
function MembersWillSee({
  values,
  saved,
  orgName,
  now,
}: {
  values: Values;
  saved: SecurityPolicy;
  orgName: string;
  now: Date;
}) {
  const from = enforcedFromIfSaved(values, saved, now);
  if (values.require_mfa === 'off') {
    return (
      <Text size="sm">
        Nobody is refused for signing in with a password alone. Members who set up a second factor
        keep using it.
      </Text>
    );
  }
  const missing = MISSING[values.require_mfa];
  return (
    <Stack gap={6}>
      <Text size="sm">
        {from && stillAhead(from, now) ? (
          <>
            Members without {missing} keep working as before until{' '}
            <Text span fw={600} inherit>
              {formatDate(from.toISOString())}
            </Text>
            . From then on, every page of {orgName} sends them to My Settings → Security, with a
            note naming what {orgName} requires, until they set it up.
          </>
        ) : (
          <>
            From{' '}
            <Text span fw={600} inherit>
              {from ? formatDate(from.toISOString()) : 'now'}
            </Text>{' '}
            on, members without {missing} cannot open {orgName}: every page of it sends them to My
            Settings → Security, with a note naming what {orgName} requires, until they set it up.
          </>
        )}
      </Text>
      <Text size="sm" c="dimmed">
        They can still sign in and manage their own account. Nobody is signed out.
      </Text>
    </Stack>
  );
}

/**
 * The organization's security policy (issue 20 item 5): off, any second factor or passkeys only,
 * after a grace period; saved with PUT …/security-policy/ (a step-up when the sign-in is old).
 */
export function SecurityPolicyForm({
  orgId,
  orgName,
  policy,
  now,
}: {
  orgId: string;
  orgName: string;
  policy: SecurityPolicy;
  /** The moment the dates are said from. */
  now: Date;
}) {
  const update = useUpdateSecurityPolicy(orgId);
  const [formError, setFormError] = useState<string | null>(null);
  const [needsOwnFactor, setNeedsOwnFactor] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: valuesOf(policy),
    validate: {
      grace_days: (value) => {
        const days = Number(value);
        return value !== '' && Number.isInteger(days) && days >= 0 && days <= MFA_GRACE_DAYS_MAX
          ? null
          : SecurityPolicyMessages.graceDays;
      },
    },
  });
  const values = form.getValues();

  const onSubmit = form.onSubmit(async (next) => {
    setFormError(null);
    setNeedsOwnFactor(null);
    try {
      const saved = await update.mutateAsync({
        require_mfa: next.require_mfa,
        grace_days: Number(next.grace_days),
      });
      resetToSaved(form, valuesOf(saved));
      toast.success(SecurityPolicyMessages.saved);
    } catch (error) {
      if (isStepUpRequired(error)) return;
      if (error instanceof ApiError && error.code === ErrorCode.MFA_NOT_ENABLED) {
        setNeedsOwnFactor(error.message);
        return;
      }
      if (applyFieldErrors(form, error)) return;
      setFormError(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? SecurityPolicyMessages.unavailable
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Security policy">
      <Stack gap="lg">
        <ProblemAlert>{formError}</ProblemAlert>
        {needsOwnFactor && (
          <Alert
            color="orange"
            variant="light"
            role="alert"
            title="Your own account does not meet this policy yet"
            icon={<IconShieldLock size={18} aria-hidden="true" />}
          >
            {needsOwnFactor}{' '}
            <Anchor component={Link} to={SECURITY_SETTINGS_PATH} inherit fw={600}>
              Set it up under My Settings → Security
            </Anchor>
            , then save the policy again.
          </Alert>
        )}
        <Radio.Group
          label="Require of every member"
          description="As well as their password, each time they sign in."
          {...form.getInputProps('require_mfa')}
        >
          <Stack gap="sm" mt="xs">
            {(Object.keys(POLICY_LABELS) as MfaPolicy[]).map((value) => (
              <Radio
                key={value}
                value={value}
                label={POLICY_LABELS[value]}
                description={POLICY_DESCRIPTIONS[value]}
              />
            ))}
          </Stack>
        </Radio.Group>
        <NumberInput
          label="Grace period (days)"
          description={`How long members without a second factor may keep working: 0 to ${MFA_GRACE_DAYS_MAX}.`}
          min={0}
          max={MFA_GRACE_DAYS_MAX}
          allowDecimal={false}
          allowNegative={false}
          disabled={values.require_mfa === 'off'}
          maw={320}
          {...form.getInputProps('grace_days')}
        />
        <Stack gap={6} component="section" aria-labelledby="policy-members-see">
          <Title order={3} fz="h5" id="policy-members-see">
            What members will see
          </Title>
          <MembersWillSee values={values} saved={policy} orgName={orgName} now={now} />
        </Stack>
        <SaveChangesButton form={form} />
      </Stack>
    </form>
  );
}
